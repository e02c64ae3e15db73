import { CommanderError } from 'commander';
import {
  AuthenticationError,
  ClaimsError,
  ClaimsHttpError,
  ClaimsNetworkError,
  RequestInvalidError,
} from '../api/errors.js';
import { ConnectionSetupError, type SetupCategory } from '../api/network/setup-error.js';
import { resourceFailure } from '../files/resource-failure.js';
import { CodedError, RefusalError, codeOf } from '../errors/coded-error.js';
import {
  ObjectStoreCertificateError,
  ObjectStoreCredentialsError,
  ObjectStoreProxyError,
} from '../storage/errors.js';
import { exitCodeTable } from './exit-code-table.js';

/** The exit codes by name, their numbers from the one table of them (exit-code-table.ts, docs/exit-codes.md). */
export const ExitCode = {
  ok: exitCodeTable.ok.code,
  someRowsNotOk: exitCodeTable.someRowsNotOk.code,
  usage: exitCodeTable.usage.code,
  aborted: exitCodeTable.aborted.code,
  serverCertificate: exitCodeTable.serverCertificate.code,
  clientCertificate: exitCodeTable.clientCertificate.code,
  proxy: exitCodeTable.proxy.code,
} as const satisfies Record<keyof typeof exitCodeTable, number>;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** A bad flag, a missing setting, a file that cannot be read: stops before anything is sent. */
export class UsageError extends RefusalError {
  readonly code = 'USAGE';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UsageError';
  }
}

/**
 * The reader of stdout has gone (`bulk-disputes export cases --out - | head -1`): the command stops
 * at its next write and the program ends quietly, as ripgrep does, with the exit code the command
 * had so far: 0 for help, reports and exports.
 */
export class OutputClosedError extends CodedError {
  readonly code = 'OUTPUT_CLOSED';
  constructor(options?: { cause?: unknown }) {
    super('stdout: expected a reader, got a closed pipe', options);
    this.name = 'OutputClosedError';
  }
}

/** The one place that maps a thrown error to an exit code: one funnel, as changesets has. */
export function exitCodeFor(error: unknown): ExitCodeValue {
  if (error instanceof OutputClosedError) return ExitCode.ok;
  if (error instanceof CommanderError) {
    // --help and --version end through commander's exit path too, with code 0.
    return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
  }
  // A refused file or setting; a request the service refused as invalid is the payload's fault too.
  if (error instanceof RefusalError || error instanceof RequestInvalidError) return ExitCode.usage;
  if (error instanceof ConnectionSetupError) return setupExitCodes[error.category];
  // A store that refuses our key or secret refuses it on every run: like a refused client certificate.
  if (error instanceof ObjectStoreCredentialsError) return ExitCode.clientCertificate;
  if (error instanceof ObjectStoreCertificateError) return ExitCode.serverCertificate;
  if (error instanceof ObjectStoreProxyError) return ExitCode.proxy;
  if (error instanceof AuthenticationError || error instanceof ClaimsNetworkError) return ExitCode.aborted;
  if (error instanceof ClaimsHttpError)
    return error.status === 429 || error.status >= 500 ? ExitCode.aborted : ExitCode.someRowsNotOk;
  if (error instanceof ClaimsError) return ExitCode.aborted;
  // Anything unforeseen stops the run; what is recorded so far stays, so it is resumable.
  return ExitCode.aborted;
}

const setupExitCodes: Record<SetupCategory, ExitCodeValue> = {
  'server-certificate': ExitCode.serverCertificate,
  'client-certificate': ExitCode.clientCertificate,
  proxy: ExitCode.proxy,
};

/**
 * One line for a person: the code when there is one, then what happened. A full disk, a refused
 * permission, a read-only or vanished file is told in words, naming the file (resource-failure.ts).
 */
export function describeFailure(error: unknown): string {
  const resource = resourceFailure(error);
  if (resource !== undefined) return `${resource.code}: ${resource.message}`;
  if (error instanceof Error) {
    const code = codeOf(error);
    return code === undefined ? error.message : `${code}: ${error.message}`;
  }
  return String(error);
}
