import { setTimeout as sleep } from 'node:timers/promises';
import { routeFor, type ProxySettings } from '../../api/network/proxy-route.js';
import { fileSizeLimitBytes } from '../../files/limits.js';
import {
  DocumentFetchError,
  DocumentNotAllowedError,
  fetchDocument,
  type FetchLimits,
} from '../../links/fetch-document.js';
import { checkEvidenceContent, type EvidenceFileResult } from '../check-content.js';
import { fileTooLarge, showCell, type EvidenceFailure } from '../errors.js';
import { DocumentServerUnavailableError } from './errors.js';

/**
 * How evidence links are fetched (docs/import.md, "Exports and evidence in object storage or behind links"):
 * within the service's network settings (its CA file, its proxy), a time limit per attempt, at
 * most `maxRedirects`, and `attempts` tries where the server failed on its side.
 */
export interface LinkSettings {
  readonly timeoutMs: number;
  readonly maxRedirects: number;
  readonly attempts: number;
  /** The wait before attempt `attempt + 1`. */
  readonly backoffMs: (attempt: number) => number;
  readonly ca?: FetchLimits['ca'];
  /** The service's proxy settings (--proxy, HTTPS_PROXY, NO_PROXY): a document goes the way the service is reached. */
  readonly proxy?: ProxySettings | undefined;
}

/**
 * 30 s an attempt: a bank's document system rendering a statement is slow, but one that has not
 * answered in 30 s is not going to. 3 redirects: a login-free document link redirects once or
 * twice (to a CDN, to a versioned path); more is a loop. 3 attempts, 0.5 s then 1 s apart: a
 * restart or a moment of overload passes, a server down is told within seconds.
 */
export const defaultLinkSettings: LinkSettings = {
  timeoutMs: 30_000,
  maxRedirects: 3,
  attempts: 3,
  backoffMs: (attempt) => 500 * 2 ** (attempt - 1),
};

/**
 * The document behind `cell`, checked as a file's content is; a refusal (not allowed, 4xx, too
 * large) is the row's failure. A server failing on its side after every attempt stops the run
 * (DocumentServerUnavailableError, exit 3: the same command again continues).
 */
export async function fetchEvidenceLink(
  cell: string,
  hosts: ReadonlySet<string>,
  settings: LinkSettings,
): Promise<EvidenceFileResult> {
  const limits: FetchLimits = {
    allowedHosts: hosts,
    // "Under 4.5 MB": a document of exactly the limit is already too large.
    maxBytes: fileSizeLimitBytes - 1,
    timeoutMs: settings.timeoutMs,
    maxRedirects: settings.maxRedirects,
    ca: settings.ca,
    proxyFor: (url) => {
      const route = routeFor(url, settings.proxy);
      return route.kind === 'proxy' ? route.proxy : undefined;
    },
  };
  for (let attempt = 1; ; attempt++) {
    try {
      const document = await fetchDocument(cell, limits);
      return await checkEvidenceContent(document.bytes, cell);
    } catch (error) {
      if (error instanceof DocumentNotAllowedError) return rowFailure('evidence_not_allowed', cell, error.message);
      if (!(error instanceof DocumentFetchError)) throw error;
      if (error.kind === 'too-large') return fileTooLarge(cell, fileSizeLimitBytes, fileSizeLimitBytes, true);
      if (!error.transient)
        return rowFailure(
          error.status === 404 || error.status === 410 ? 'evidence_not_found' : 'evidence_unreadable',
          cell,
          error.message,
        );
      if (attempt >= settings.attempts)
        throw new DocumentServerUnavailableError(
          `evidence ${showCell(cell)}: ${afterLink(cell, error.message)} (${String(attempt)} attempts): run the same command again`,
          { cause: error },
        );
      await sleep(settings.backoffMs(attempt));
    }
  }
}

/** fetchDocument's message, `<link>: expected …, got …`, as a row's: `evidence <cell>: expected …, got …`. */
function rowFailure(code: EvidenceFailure['code'], cell: string, message: string): EvidenceFailure {
  return { ok: false, code, message: `evidence ${showCell(cell)}: ${afterLink(cell, message)}` };
}

function afterLink(cell: string, message: string): string {
  return message.startsWith(`${cell}: `) ? message.slice(cell.length + 2) : message;
}
