import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { runCli } from '../../helpers/cli.js';

/**
 * How well `mapping guess` places the reason labels and headers of the held-out exports in
 * fixtures/ (written as issuers in each language write them, not copied from the vocabulary). Each
 * export has a sidecar `NAME.expected.json`: the API reason of each label (null: no reason can be
 * told from it, so it must stay TODO) and the target of each header.
 */

export const fixtureFolder = fileURLToPath(new URL('./fixtures/', import.meta.url));
export const fixtureNames = [
  'english',
  'french',
  'german',
  'spanish',
  'italian',
  'dutch',
  'portuguese',
  'network-codes',
] as const;

interface Expected {
  readonly language: string;
  readonly reasonColumn: string;
  readonly labels: Readonly<Record<string, string | null>>;
  readonly headers: Readonly<Record<string, string>>;
}

export interface LabelOutcome {
  readonly label: string;
  readonly expected: string | null;
  /** What the draft's enum says: a reason, `TODO`, or undefined when the label is not in it. */
  readonly got: string | undefined;
  readonly verdict: 'correct' | 'wrong' | 'todo';
  /** The CHECK comment on the label's line, if any. */
  readonly check: string | undefined;
}

export interface Measurement {
  readonly name: string;
  readonly language: string;
  readonly labels: readonly LabelOutcome[];
  /** Labels with a reason to find: the denominator of the share placed. */
  readonly placeable: number;
  readonly correct: number;
  readonly wrong: number;
  readonly headers: readonly { header: string; expected: string; placed: boolean }[];
  readonly draft: string;
}

type DraftJs = {
  claim: { key: string[] };
  shared: Record<string, Record<string, unknown>>;
  case: Record<string, Record<string, unknown>>;
};

export async function measure(name: string): Promise<Measurement> {
  const expected = JSON.parse(await readFile(join(fixtureFolder, `${name}.expected.json`), 'utf8')) as Expected;
  const run = await runCli(['mapping', 'guess', join(fixtureFolder, `${name}.csv`)]);
  if (run.exitCode !== 0) throw new Error(`mapping guess ${name}: exit ${run.exitCode}: ${run.stderr}`);
  const draft = run.stdout;
  const mapping = parseDocument(draft).toJS() as DraftJs;
  const reason = mapping.shared['dispute.reason'];
  const table = reason?.column === expected.reasonColumn ? ((reason.enum ?? {}) as Record<string, string>) : {};
  const lines = draft.split('\n');
  const labels = Object.entries(expected.labels).map(([label, want]): LabelOutcome => {
    const got = table[label];
    const verdict = got === undefined || got === 'TODO' ? 'todo' : got === want ? 'correct' : 'wrong';
    const line = lines.find(
      (text) => text.trimStart().startsWith(`${JSON.stringify(label)}:`) || text.trimStart().startsWith(`${label}:`),
    );
    return { label, expected: want, got, verdict, check: line?.split('# CHECK: ')[1] };
  });
  const headers = Object.entries(expected.headers).map(([header, target]) => ({
    header,
    expected: target,
    placed: placedAt(mapping, target, header),
  }));
  return {
    name,
    language: expected.language,
    labels,
    placeable: labels.filter((outcome) => outcome.expected !== null).length,
    correct: labels.filter((outcome) => outcome.verdict === 'correct').length,
    wrong: labels.filter((outcome) => outcome.verdict === 'wrong').length,
    headers,
    draft,
  };
}

function placedAt(mapping: DraftJs, target: string, header: string): boolean {
  if (target === 'claim.key') return mapping.claim.key.length === 1 && mapping.claim.key[0] === header;
  const [section = '', ...rest] = target.split('.');
  const field = (section === 'shared' ? mapping.shared : mapping.case)[rest.join('.')];
  return field?.column === header;
}

/** One line per export: "french  labels placed right 11/11 (100%), wrong 0; headers 11/11 (100%)". */
export function summarise(measurement: Measurement): string {
  const share = (count: number, total: number) =>
    `${count}/${total} (${Math.round((100 * count) / Math.max(total, 1))}%)`;
  const placedHeaders = measurement.headers.filter((header) => header.placed).length;
  return `${measurement.name.padEnd(14)} labels placed right ${share(measurement.correct, measurement.placeable)}, wrong ${measurement.wrong}; headers ${share(placedHeaders, measurement.headers.length)}`;
}
