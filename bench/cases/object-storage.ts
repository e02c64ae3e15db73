import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import pLimit from 'p-limit';
import { startSwiftS3, type SwiftS3 } from '../../test/helpers/swift-s3.js';
import { genericHeader, rowCells } from '../../test/import/generate.js';
import { writeEvidenceFiles, type EvidenceFileSpec } from '../support/evidence-files.js';
import { genericMappingFile } from '../support/paths.js';
import { expectSuccess, mib, runNodeMeasured, type MeasuredRun } from '../support/process.js';
import { benchApiKey, withSandbox } from '../support/sandbox.js';
import type { BenchCase, BenchContext, BenchRow } from '../types.js';

/**
 * Evidence from object storage: the same night imported twice into the same sandbox, its
 * evidence read once from a folder on disk and once from an S3-compatible bucket (Debian's
 * OpenStack Swift with its S3 API on loopback, which checks every signature), by the real CLI,
 * its peak memory measured. A night of one document per claim, so that every claim's time holds
 * the reading of its document. The goal: the bucket within 1.3× the time of the disk, and memory
 * flat, the full night's peak against a night a tenth its size.
 */

const goalTimeRatio = 1.3;
const goalMemoryRatio = 1.15;
const bucket = 'bench-evidence';
const prefix = 'night/';

const sizes = {
  full: { documents: 2_000, small: 200, rounds: 3 },
  quick: { documents: 40, small: 10, rounds: 1 },
};

/** 40 to 120 KB: a receipt or a scanned letter, as most evidence is. */
const documentBytes = (index: number) => 40_000 + ((index * 53) % 80) * 1_000;

/** One claim per document, its receipt column naming it. */
async function writeNight(file: string, documents: readonly EvidenceFileSpec[]): Promise<void> {
  const receipt = genericHeader.indexOf('receipt_file');
  const now = Date.now();
  const lines = [genericHeader.join(',')];
  for (const [claim, document] of documents.entries()) {
    const cells = rowCells({ claim, transaction: 0 }, now);
    cells[receipt] = document.name;
    lines.push(cells.map((cell) => (/[",\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell)).join(','));
  }
  await writeFile(file, `${lines.join('\n')}\n`);
}

async function fillBucket(store: SwiftS3, documents: readonly EvidenceFileSpec[]): Promise<void> {
  const client = new S3Client({
    endpoint: store.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: store.accessKeyId, secretAccessKey: store.secretAccessKey },
  });
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    const limit = pLimit(16);
    await Promise.all(
      documents.map(async (document) =>
        limit(async () =>
          client.send(
            new PutObjectCommand({
              Bucket: bucket,
              Key: `${prefix}${document.name}`,
              Body: await readFile(document.path),
            }),
          ),
        ),
      ),
    );
  } finally {
    client.destroy();
  }
}

interface Night {
  readonly name: string;
  readonly csv: string;
  readonly documents: number;
}

async function importNight(
  context: BenchContext,
  night: Night,
  from: { evidenceDir: string; label: string },
  run: { baseUrl: string; store: SwiftS3; round: number },
): Promise<MeasuredRun> {
  const job = `${night.name}-${from.label}-${String(run.round)}`;
  const measured = await runNodeMeasured(
    [
      context.cliBin,
      '--log-level',
      'warn',
      'import',
      night.csv,
      '--mapping',
      genericMappingFile,
      '--evidence-dir',
      from.evidenceDir,
      // Each run its own claims at the one sandbox: nothing found there from the run before.
      '--id-prefix',
      `${from.label.toUpperCase()}${String(run.round)}-`,
      '--journal',
      join(context.workDir, `${job}.journal.sqlite`),
      '--results',
      join(context.workDir, `${job}.results.csv`),
    ],
    {
      timeReport: join(context.workDir, `${job}.time`),
      timeoutMs: 30 * 60_000,
      env: {
        ...process.env,
        CLAIMS_BASE_URL: run.baseUrl,
        CLAIMS_API_KEY: benchApiKey,
        BULK_DISPUTES_S3_ENDPOINT: run.store.endpoint,
        AWS_ACCESS_KEY_ID: run.store.accessKeyId,
        AWS_SECRET_ACCESS_KEY: run.store.secretAccessKey,
        AWS_REGION: 'us-east-1',
      },
    },
  );
  expectSuccess(measured, `object-storage: ${night.documents} claims with evidence from ${from.label}`);
  return measured;
}

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function run(context: BenchContext): Promise<BenchRow[]> {
  if (!existsSync('/usr/bin/swift-proxy-server'))
    throw new Error(
      'object-storage: expected Swift installed (apt-get install swift swift-proxy swift-account swift-container swift-object), got none',
    );
  const size = context.quick ? sizes.quick : sizes.full;
  const evidenceDir = join(context.workDir, 'evidence');
  await mkdir(evidenceDir, { recursive: true });
  context.log(`object-storage: writing ${size.documents} documents of 40-120 KB (JPEG, PNG, PDF)`);
  const documents = await writeEvidenceFiles(evidenceDir, 'doc', size.documents, documentBytes);
  const nights: Night[] = [
    { name: 'night', csv: join(context.workDir, 'night.csv'), documents: documents.length },
    { name: 'small', csv: join(context.workDir, 'small.csv'), documents: size.small },
  ];
  await writeNight(nights[0]?.csv ?? '', documents);
  await writeNight(nights[1]?.csv ?? '', documents.slice(0, size.small));

  const store = await startSwiftS3();
  try {
    context.log(`object-storage: putting the documents in s3://${bucket}/${prefix}`);
    await fillBucket(store, documents);
    const dbFile = join(context.workDir, 'object-storage.sandbox.db');
    return await withSandbox({ cliBin: context.sandboxCliBin, dbFile }, async (sandbox) => {
      const disk = { evidenceDir, label: 'disk' };
      const bucketFrom = { evidenceDir: `s3://${bucket}/${prefix}`, label: 'bucket' };
      const [night, small] = nights as [Night, Night];
      const times = { disk: [] as number[], bucket: [] as number[] };
      const peaks = { disk: [] as number[], bucket: [] as number[] };
      // Alternating rounds, medians: a burst of other work on the machine then hits both sides alike.
      for (let round = 1; round <= size.rounds; round++) {
        context.log(`object-storage: round ${round} of ${size.rounds}, from disk, then from the bucket`);
        for (const from of [disk, bucketFrom]) {
          const measured = await importNight(context, night, from, { baseUrl: sandbox.url, store, round });
          times[from.label as 'disk'].push(measured.seconds);
          peaks[from.label as 'disk'].push(measured.peakRssBytes);
        }
      }
      context.log('object-storage: a night a tenth the size, from the bucket');
      const smallRun = await importNight(context, small, bucketFrom, { baseUrl: sandbox.url, store, round: 0 });
      const [diskSeconds, bucketSeconds] = [median(times.disk), median(times.bucket)];
      const bucketPeak = Math.max(...peaks.bucket);
      const list = (values: readonly number[]) => values.map((value) => value.toFixed(1)).join(', ');
      const megabytes = documents.reduce((sum, document) => sum + document.sizeBytes, 0) / 1_000_000;
      const benchmark = `Evidence from object storage (${documents.length} claims, one document each, ${megabytes.toFixed(0)} MB)`;
      return [
        {
          benchmark,
          figure: `from the bucket: ${bucketSeconds.toFixed(1)} s`,
          baseline: `from disk: ${diskSeconds.toFixed(1)} s`,
          ratio: bucketSeconds / diskSeconds,
          goal: `<= ${goalTimeRatio} (time, smaller is better)`,
          met: bucketSeconds / diskSeconds <= goalTimeRatio,
          note:
            `median of ${size.rounds} alternating round(s) (bucket ${list(times.bucket)} s; disk ${list(times.disk)} s); ` +
            `the whole import command each time (staging, evidence read and checked, uploaded, claims created and filed, results), ` +
            `into one sandbox, each run its own --id-prefix; the bucket: Swift with s3api on loopback, SigV4 checked by Swift`,
        },
        {
          benchmark: `${benchmark}, memory`,
          figure: `peak RSS, ${documents.length} claims from the bucket: ${mib(bucketPeak)}`,
          baseline: `${size.small} claims from the bucket: ${mib(smallRun.peakRssBytes)}`,
          ratio: bucketPeak / smallRun.peakRssBytes,
          goal: `<= ${goalMemoryRatio} (smaller is better)`,
          met: bucketPeak / smallRun.peakRssBytes <= goalMemoryRatio,
          note: `from disk, ${documents.length} claims: ${mib(Math.max(...peaks.disk))}; ${smallRun.peakRssSource} for the small night`,
        },
      ];
    });
  } finally {
    await store.stop();
  }
}

export const benchCase: BenchCase = { name: 'object-storage', run };
