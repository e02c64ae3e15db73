import { createTemporaryStream, temporaryBeside } from '../files/own-file.js';
import { once } from 'node:events';
import { rename, rm } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import type { ClaimsClient } from '../api/client/index.js';
import { maskCardNumbers } from '../card-numbers/mask.js';
import { neutralise } from '../csv/neutralise.js';
import type { ExportResource } from './columns.js';
import { flatten } from './flatten.js';
import { csvWriteOptions } from '../csv/write-options.js';
import { resourceFailure } from '../files/resource-failure.js';
import type { ExportPlan } from './plan.js';

export interface WrittenCsv {
  rows: number;
  /** The newest id exported, or `after` when nothing new came. */
  bookmark: string | undefined;
}

const pageSize = 100;

/**
 * One list to CSV in flat memory: the client holds one page at a time and fetches the next only
 * when the CSV writer has room, so a slow disk or reader slows the paging down.
 */
export async function writeExportCsv(client: ClaimsClient, plan: ExportPlan): Promise<WrittenCsv> {
  const { target } = plan;
  const temporary = 'file' in target ? temporaryBeside(target.file) : undefined;
  const csv = stringify(csvWriteOptions);
  const written = pipeline(
    csv,
    temporary === undefined
      ? sinkWritable((target as { sink: { write(text: string): unknown } }).sink)
      : createTemporaryStream(temporary),
  );
  written.catch(() => undefined);
  try {
    const report = await writeRecords(csv, client, plan);
    csv.end();
    await written;
    if (temporary !== undefined && 'file' in target) await rename(temporary, target.file);
    return report;
  } catch (error) {
    csv.destroy();
    await written.catch(() => undefined);
    if (temporary !== undefined) await rm(temporary, { force: true });
    // A full disk or a refused folder names the CSV asked for, not its temporary file.
    throw 'file' in target ? (resourceFailure(error, target.file) ?? error) : error;
  }
}

async function writeRecords(
  csv: ReturnType<typeof stringify>,
  client: ClaimsClient,
  { resource, columns, bookmark: from, progress }: ExportPlan,
): Promise<WrittenCsv> {
  const after = from?.after;
  await write(csv, columns.map(neutralise));
  let rows = 0;
  let bookmark = after;
  for await (const record of listAll(client, resource, after)) {
    const flat = flatten(record);
    // The service's free text may hold a card number someone typed (docs/export.md): written masked.
    await write(
      csv,
      columns.map((column) => neutralise(maskCardNumbers(flat[column] ?? ''))),
    );
    rows++;
    progress?.update(rows);
    const id = idOf(resource, record);
    // From the start the list is newest first, so the bookmark is the first id; after a
    // bookmark it is oldest first (paginate.ts), so the bookmark is the last one.
    if (after !== undefined || rows === 1) bookmark = id;
  }
  return { rows, bookmark };
}

function listAll(client: ClaimsClient, resource: ExportResource, after: string | undefined): AsyncIterable<unknown> {
  const start = after === undefined ? { limit: pageSize } : { limit: pageSize, ending_before: after };
  if (resource === 'cases') return client.cases.listAll(start);
  if (resource === 'claims') return client.claims.listAll(start);
  return client.events.listAll(start);
}

const idFields: Record<ExportResource, string> = { cases: 'case_id', claims: 'claim_id', events: 'event_id' };

function idOf(resource: ExportResource, record: unknown): string {
  return String((record as Record<string, unknown>)[idFields[resource]]);
}

async function write(csv: ReturnType<typeof stringify>, record: string[]): Promise<void> {
  // What destroyed it (a closed stdout, a full disk) says more than that it was destroyed.
  if (csv.destroyed) throw csv.errored ?? new Error('export: the CSV could not be written');
  // `once` rejects on 'error', so a failing disk ends the wait.
  if (!csv.write(record)) await once(csv, 'drain');
}

/** A text sink as a stream; a sink that is itself a stream (process.stdout) passes its backpressure on. */
function sinkWritable(sink: { write(text: string): unknown }): Writable {
  return new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      let accepted: unknown;
      try {
        accepted = sink.write(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      } catch (error) {
        // A sink that throws (the CLI's stdout once its reader has gone) fails the pipeline with it.
        callback(error as Error);
        return;
      }
      const emitter = sink as { once?: (event: string, listener: () => void) => unknown };
      if (accepted === false && typeof emitter.once === 'function')
        emitter.once('drain', () => {
          callback();
        });
      else callback();
    },
  });
}
