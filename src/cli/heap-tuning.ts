import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/**
 * For the commands that stream a job (import, export, migrate-v1, report), not the sandbox. A
 * job streams millions of rows with a live heap of about 20 MiB but allocates fast; V8's default
 * heap growing factor (up to 4×) then lets garbage pile up to 100+ MiB before a full collection,
 * so peak memory grew with the length of the run (dry run: 10,000 rows 158 MiB, 1,000,000 rows
 * 230 MiB). Growing the old generation by at most 30% per collection keeps it flat (145 and
 * 155 MiB at 10,000 and 100,000 rows; 142 and 162 MiB at 10,000 and 1,000,000 in the bench) at
 * the same wall time. The sandbox is left at V8's default: its extra collections would compete
 * with the import for the same cores (submit bench at concurrency 32: 0.77 with it, 0.83
 * without). V8 reads the flag at every collection, so setting it once the process runs takes
 * effect (measured: the same figures as `node --heap-growing-percent=30`).
 *
 * Those figures predate the staging workers. Measured with two of them: 10,000 rows at 208–214 MiB
 * and 1,000,000 at 225.7 MiB (VmHWM): ~52 MiB of it the node binary's pages, two worker isolates
 * ~25 MiB each, the main thread's 32 MiB of new space; its live heap after a full collection at
 * the end of staging was 22.6 MiB (7.5 of it strings, mostly module sources). With one staging
 * worker and the young generation kept small: 10,000 rows 150–158 MiB, 200,000 rows 172 MiB,
 * 1,000,000 rows 180.3 MiB (the peak is the end of staging, the worker still alive).
 */
export function limitHeapGrowth(): void {
  setFlag('--heap-growing-percent=30');
}

/**
 * The young generation, kept at its starting size. V8 doubles it, up to two
 * 16 MiB semi-spaces, whenever objects survive a scavenge; loading the CLI's modules alone did
 * that (32 MiB of new space before a command ran, measured with v8.getHeapSpaceStatistics()),
 * and it never shrank while a job allocated: ~30 MiB of every job's peak. V8 reads the growth
 * factor each time it would grow, so it must be set before the modules load (bin.ts), which
 * `--max-semi-space-size` on the command line would do but the bin cannot pass to itself.
 * Measured: 10,000-row dry run 208–209 → 180–183 MiB with two staging workers; the main thread's
 * CPU per staged row the same within the noise (37.0 and 37.7 µs against 37.8 and 37.7).
 */
export function keepYoungGenerationSmall(): void {
  setFlag('--semi-space-growth-factor=1');
}

/**
 * V8's default growth back: for the sandbox (a server's survivors are its requests in flight), and
 * for an import once staging is done (run-import.ts `onStaged`). Staging, with its worker alive,
 * is the import's peak; after it, a 1 MiB young generation made the sending and the results pay
 * a scavenge per MiB allocated, most of what they allocate surviving one: the re-run of a finished
 * 100,000-row import (the results written again) spent 1.5 of its 3.1 s collecting (1,923
 * scavenges, `--trace-gc`). Measured, growing once staged, alternated three times: that re-run
 * 3.0–3.1 → 2.1–2.2 s (1.9–2.1 s before the young generation was kept small); a 1,000,000-row
 * dry run 106.7 → 88.5 s at the same peak (186 MiB both, the end of staging); 10,000 rows 162.8
 * and 164.1 MiB.
 */
export function letYoungGenerationGrow(): void {
  setFlag('--semi-space-growth-factor=2');
  holdYoungGenerationAt(youngGenerationCapBytes);
}

/**
 * For a workbook's staging: exceljs's reader makes many small objects per cell (the XML parser's
 * events, the cells, the row) that live for a row or two. In a 2 MiB young generation most of them
 * survive a scavenge and are promoted; the old generation then fills with garbage that only full
 * collections take back. Measured, a 100,000-row results workbook fed back as a dry run on Node
 * 24: 28.3 s (13.6 s of it collecting, 9,137 scavenges and 196 full collections on the main
 * thread) with the young generation kept small, 16.3–21.2 s held at 16 MiB (four runs), at the
 * same peak (247–255 MiB: the peak is the results' writing, after staging). Node 22: 19.9 s and
 * 16.0–22.7 s.
 */
export function letYoungGenerationGrowForWorkbooks(): void {
  setFlag('--semi-space-growth-factor=2');
  holdYoungGenerationAt(workbookYoungGenerationCapBytes);
}

const workbookYoungGenerationCapBytes = 16 * 1024 * 1024;

/**
 * What the young generation may grow to: 32 MiB, the most V8 gave it on Node 20 and 22. On Node 24
 * V8 sizes its ceiling from the machine's memory (128 MiB on a 24 GiB machine), and only the
 * command line can lower it (`--max-semi-space-size`, read once when the heap is made), so the
 * growth is stopped here when the new space reaches the cap. Measured, a 100,000-row dry run on
 * Node 24: peak 268.5 MiB growing freely, 185 on Node 22 (docs/development.md, "Supported Node.js").
 */
const youngGenerationCapBytes = 32 * 1024 * 1024;

/** The observer holding the young generation at a cap: one at a time, the newest cap wins. */
let holding: PerformanceObserver | undefined;

/** Growth stopped (the factor back to 1) after the first collection that finds the new space at `capBytes`. */
function holdYoungGenerationAt(capBytes: number): void {
  holding?.disconnect();
  const observer = new PerformanceObserver(() => {
    const newSpace = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    if (newSpace === undefined || newSpace.space_size < capBytes) return;
    observer.disconnect();
    setFlag('--semi-space-growth-factor=1');
  });
  observer.observe({ entryTypes: ['gc'] });
  holding = observer;
}

/** The flags set so far, by name: each worker thread that starts sets V8's flags back to their defaults. */
const flagsSet = new Map<string, string>();

/**
 * Sets a V8 flag for the whole process, and again each time a worker thread has started (the
 * staging worker): measured, a worker's start put the growth factor back to 2, and the
 * main thread's young generation then grew to 32 MiB within the run.
 */
function setFlag(flag: string): void {
  if (flagsSet.size === 0) process.on('worker', (worker) => worker.once('online', setAgain));
  flagsSet.set(flag.slice(0, flag.indexOf('=')), flag);
  setFlagsFromString(flag);
}

function setAgain(): void {
  for (const flag of flagsSet.values()) setFlagsFromString(flag);
}
