import { existsSync } from 'node:fs';
import { link, mkdir, readFile, writeFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import pLimit from 'p-limit';
import { startSwiftS3, type SwiftS3 } from '../../test/helpers/swift-s3.js';
import { genericHeader, rowCells } from '../../test/import/generate.js';
import { startBareStore } from '../support/bare-store.js';
import { writeEvidenceFiles, type EvidenceFileSpec } from '../support/evidence-files.js';
import { genericMappingFile } from '../support/paths.js';
import { expectSuccess, mib, runNodeMeasured, type MeasuredRun } from '../support/process.js';
import { benchApiKey, withSandbox } from '../support/sandbox.js';
import type { BenchCase, BenchContext, BenchRow } from '../types.js';

/**
 * Evidence from object storage: the same night imported into the same sandbox by the real CLI,
 * its evidence read from a folder on disk, from a store that keeps up (bare-store-main.ts: the
 * S3 API's GET from a folder, answered 20 ms after each request, no signature checked), and from Debian's OpenStack Swift with its S3
 * API on loopback (which checks every signature, and answers about 150 GETs a second on this
 * machine), its peak memory measured. A night of one document per claim, so that every claim's
 * time holds the reading of its document. The goal: the store that keeps up within 1.3× the time
 * of the disk; memory flat, no more from the store than from disk (a night a tenth the size beside it). Swift's row
 * shows its own floor beside it: the same GETs by the SDK alone, nothing else running.
 */

const goalTimeRatio = 1.3;
/**
 * How long the store that keeps up takes to answer each object: about what S3 takes to its first
 * byte within a region. On loopback a store answers at once, and a reader that waits on every
 * document in its claim's turn would look as fast as one that reads ahead.
 */
const storeLatencyMs = 20;
/** Memory from a store against the same night from disk: the store holds no more than its reads in flight. */
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

/** The store's own floor: every document GET by the SDK alone, 16 at a time, as the import reads them. */
async function storeFloorSeconds(store: SwiftS3, documents: readonly EvidenceFileSpec[]): Promise<number> {
  const client = new S3Client({
    endpoint: store.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    credentials: { accessKeyId: store.accessKeyId, secretAccessKey: store.secretAccessKey },
  });
  try {
    const limit = pLimit(16);
    const startedMs = performance.now();
    await Promise.all(
      documents.map(async (document) =>
        limit(async () => {
          const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: `${prefix}${document.name}` }));
          await got.Body?.transformToByteArray();
        }),
      ),
    );
    return (performance.now() - startedMs) / 1000;
  } finally {
    client.destroy();
  }
}

/** The documents as the bare store serves them: `bucket/prefix/name`, hard links to the files on disk. */
async function fillBareStore(folder: string, documents: readonly EvidenceFileSpec[]): Promise<void> {
  await mkdir(join(folder, bucket, prefix), { recursive: true });
  for (const document of documents) await link(document.path, join(folder, bucket, prefix, document.name));
}

interface Night {
  readonly name: string;
  readonly csv: string;
  readonly documents: number;
}

async function importNight(
  context: BenchContext,
  night: Night,
  from: { readonly evidenceDir: string; readonly label: string },
  run: { baseUrl: string; store: { endpoint: string; accessKeyId: string; secretAccessKey: string }; round: number },
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

  const swift = await startSwiftS3();
  const bare = await startBareStore(join(context.workDir, 'bare-store'), storeLatencyMs);
  try {
    context.log(`object-storage: putting the documents in s3://${bucket}/${prefix}`);
    await fillBucket(swift, documents);
    await fillBareStore(join(context.workDir, 'bare-store'), documents);
    const bareStore = { endpoint: bare.url, accessKeyId: 'bench', secretAccessKey: 'bench' };
    const dbFile = join(context.workDir, 'object-storage.sandbox.db');
    return await withSandbox({ cliBin: context.sandboxCliBin, dbFile }, async (sandbox) => {
      const bucketDir = `s3://${bucket}/${prefix}`;
      const arms = [
        { label: 'disk', evidenceDir, store: bareStore },
        { label: 'bare', evidenceDir: bucketDir, store: bareStore },
        { label: 'swift', evidenceDir: bucketDir, store: swift },
      ] as const;
      const [night, small] = nights as [Night, Night];
      const times: Record<string, number[]> = { disk: [], bare: [], swift: [] };
      const peaks: Record<string, number[]> = { disk: [], bare: [], swift: [] };
      const floors: number[] = [];
      // Alternating rounds, medians: a burst of other work on the machine then hits every side alike.
      for (let round = 1; round <= size.rounds; round++) {
        context.log(`object-storage: round ${round} of ${size.rounds}: disk, the bare store, Swift, Swift alone`);
        for (const arm of arms) {
          const measured = await importNight(context, night, arm, { baseUrl: sandbox.url, store: arm.store, round });
          times[arm.label]?.push(measured.seconds);
          peaks[arm.label]?.push(measured.peakRssBytes);
        }
        floors.push(await storeFloorSeconds(swift, documents));
      }
      context.log('object-storage: a night a tenth the size, from the bare store and from disk');
      const smallRun = await importNight(context, small, arms[1], { baseUrl: sandbox.url, store: bareStore, round: 0 });
      const smallDisk = await importNight(context, small, arms[0], {
        baseUrl: sandbox.url,
        store: bareStore,
        round: 0,
      });
      const seconds = (label: string) => median(times[label] ?? []);
      const [diskSeconds, bareSeconds, swiftSeconds, floorSeconds] = [
        seconds('disk'),
        seconds('bare'),
        seconds('swift'),
        median(floors),
      ];
      const barePeak = Math.max(...(peaks.bare ?? []));
      const diskPeak = Math.max(...(peaks.disk ?? []));
      const list = (values: readonly number[] | undefined) =>
        (values ?? []).map((value) => value.toFixed(1)).join(', ');
      const megabytes = documents.reduce((sum, document) => sum + document.sizeBytes, 0) / 1_000_000;
      const benchmark = `Evidence from object storage (${documents.length} claims, one document each, ${megabytes.toFixed(0)} MB)`;
      const rounds = `median of ${size.rounds} alternating round(s)`;
      const whole =
        'the whole import command each time (staging, evidence read and checked, uploaded, claims created and filed, results), ' +
        'into one sandbox, each run its own --id-prefix';
      return [
        {
          benchmark,
          figure: `from a store that keeps up: ${bareSeconds.toFixed(1)} s`,
          baseline: `from disk: ${diskSeconds.toFixed(1)} s`,
          ratio: bareSeconds / diskSeconds,
          goal: `<= ${goalTimeRatio} (time, smaller is better)`,
          met: bareSeconds / diskSeconds <= goalTimeRatio,
          note:
            `${rounds} (store ${list(times.bare)} s; disk ${list(times.disk)} s); ${whole}; the store: ` +
            `node:http answering GET /bucket/key from a folder ${storeLatencyMs} ms after each request ` +
            '(bench/support/bare-store-main.ts), no signature checked',
        },
        {
          benchmark: `${benchmark}, from Swift`,
          figure: `from Swift's S3 API: ${swiftSeconds.toFixed(1)} s`,
          baseline: `from disk: ${diskSeconds.toFixed(1)} s`,
          ratio: swiftSeconds / diskSeconds,
          note:
            `informational; ${rounds} (Swift ${list(times.swift)} s); Swift alone, the same ${documents.length} GETs by the SDK, ` +
            `16 at a time, nothing else running: ${floorSeconds.toFixed(1)} s (${list(floors)}), its floor for this night; ` +
            'Swift 2.30 with s3api and tempauth on loopback, one process per server, checking every SigV4 signature',
        },
        {
          benchmark: `${benchmark}, memory`,
          figure: `peak RSS, ${documents.length} claims from the store: ${mib(barePeak)}`,
          baseline: `the same from disk: ${mib(diskPeak)}`,
          ratio: barePeak / diskPeak,
          goal: `<= ${goalMemoryRatio} (smaller is better)`,
          met: barePeak / diskPeak <= goalMemoryRatio,
          note:
            `a night a tenth the size: ${mib(smallRun.peakRssBytes)} from the store, ${mib(smallDisk.peakRssBytes)} from disk ` +
            `(x${(barePeak / smallRun.peakRssBytes).toFixed(2)} and x${(diskPeak / smallDisk.peakRssBytes).toFixed(2)} for ten times the claims: ` +
            `what grows is the import's own, not the store's); from Swift: ${mib(Math.max(...(peaks.swift ?? [])))}`,
        },
      ];
    });
  } finally {
    await bare.stop();
    await swift.stop();
  }
}

export const benchCase: BenchCase = { name: 'object-storage', run };
