import { prettyFactory, type MessageFormatFunc } from 'pino-pretty';

/** Keys every record has, or that the line shows in its own place. */
const shownElsewhere = new Set(['level', 'time', 'pid', 'hostname', 'name', 'msg']);

/**
 * A pino JSON line as a line for people:
 * `[14:03:22] WARN: claim failed; the next run retries it  claimId=clm_1 code=CLAIMS_HTTP_503`.
 * pino-pretty, in this process and synchronous (prettyFactory, no worker transport): a line is
 * written before the progress line is drawn again, and nothing is left to flush at exit. Only the
 * fields a person reads at a glance are shown (see `logFields`); the JSON format keeps them all.
 */
export function prettyLogLine(options: { colorize: boolean }): (jsonLine: string) => string {
  const messageFormat: MessageFormatFunc = (log, messageKey, _levelLabel, { colors }) => {
    const fields = logFields(log);
    const text = log[messageKey];
    const message = typeof text === 'string' ? text : '';
    const line = fields === '' ? message : `${message}  ${colors.gray(fields)}`;
    // An unforeseen error (pino's `err`) keeps its stack, below the line, as pino-pretty shows it.
    const stack = (log.err as { stack?: unknown } | undefined)?.stack;
    return typeof stack === 'string' ? `${line}\n${colors.gray(stack.replace(/^/gm, '    '))}` : line;
  };
  const format = prettyFactory({
    colorize: options.colorize,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,name',
    hideObject: true,
    messageFormat,
  });
  // Always a whole line: the progress line is drawn again right after it.
  return (jsonLine) => {
    const line = format(jsonLine);
    return line.endsWith('\n') ? line : `${line}\n`;
  };
}

/**
 * A record's own fields as `key=value`: strings, numbers and booleans, a short list of them, an
 * error's message; nested objects (the throttling statistics, the counts by outcome) are left to
 * the JSON format and the summary.
 */
export function logFields(log: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(log)) {
    if (shownElsewhere.has(key)) continue;
    const text = fieldText(value);
    if (text !== undefined) parts.push(`${key}=${text}`);
  }
  return parts.join(' ');
}

function fieldText(value: unknown): string | undefined {
  if (typeof value === 'string') return /^[\w.:/@+,-]+$/.test(value) ? value : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (
    Array.isArray(value) &&
    value.length <= 5 &&
    value.every((item) => ['string', 'number', 'boolean'].includes(typeof item))
  )
    return fieldText(value.join(','));
  // An error (pino's `err` serialiser): its message; the JSON format has its stack.
  if (typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string')
    return fieldText((value as { message: string }).message);
  return undefined;
}
