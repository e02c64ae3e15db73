import { parse as parseYaml } from 'yaml';
import {
  changedPaths,
  describeChangedPaths,
  describeValuesThen,
  flagDifference,
  flagDifferences,
  madeWithRefusal,
  shortHash,
  shownValue,
  type MadeWithDifference,
} from '../journal/made-with.js';
import type { Shard } from '../job-files/claims/ids.js';
import type { ImportFingerprint, RecordedImportFingerprint } from '../job-files/import/meta.js';
import {
  objectChanges,
  parseObjectFingerprint,
  type ObjectFingerprint,
} from '../job-files/import/input-fingerprint.js';

/**
 * What ties an import's journal to its job (the fingerprint, in the journal's `meta`), and, when a
 * run differs, the refusal that names what differs and what to change (docs/import.md, "Resume").
 */

/** What the journal keeps beside its fingerprint, to say what changed: the mapping's text and the input's path. */
export interface MadeWithFiles {
  mappingText: string | undefined;
  inputFile: string | undefined;
}

function inputDifference(then: ImportFingerprint, now: ImportFingerprint, files: MadeWithFiles, inputFile: string) {
  const [objectThen, objectNow] = [parseObjectFingerprint(then.input), parseObjectFingerprint(now.input)];
  if (objectThen !== undefined || objectNow !== undefined) return objectDifference(then, now, objectThen, objectNow);
  const named = files.inputFile !== undefined && files.inputFile !== inputFile ? ` (${files.inputFile})` : '';
  return {
    said: `an input file that differs from the one this journal was made with${named} (sha256 ${shortHash(then.input)} vs ${shortHash(now.input)})`,
    resume:
      files.inputFile === undefined
        ? 'the input file it was made with'
        : `the input file it was made with, ${files.inputFile}`,
  };
}

/**
 * An object input that is not the one the journal was made with (other bytes at its key, another
 * key), or an object where a file was, or the other way round: named, with what changed.
 */
function objectDifference(
  then: ImportFingerprint,
  now: ImportFingerprint,
  objectThen: ObjectFingerprint | undefined,
  objectNow: ObjectFingerprint | undefined,
) {
  const described = (object: ObjectFingerprint | undefined, sha256: string) =>
    object === undefined ? `a file of sha256 ${shortHash(sha256)}` : object.address;
  if (objectThen === undefined || objectNow === undefined)
    return {
      said: `an input that differs from the one this journal was made with (${described(objectThen, then.input)} vs ${described(objectNow, now.input)})`,
      resume: `the input it was made with, ${described(objectThen, then.input)}`,
    };
  const replaced = objectThen.address === objectNow.address ? ' (it was replaced since)' : '';
  return {
    said: `an input object that differs from the one this journal was made with${replaced}: ${objectNow.address} (${objectChanges(objectThen, objectNow)})`,
    resume: `the object it was made with, ${objectThen.address} of ETag ${objectThen.etag}`,
  };
}

function parsedMapping(text: string): unknown {
  try {
    return parseYaml(text) as unknown;
  } catch {
    return undefined;
  }
}

function mappingDifference(then: ImportFingerprint, now: ImportFingerprint, files: MadeWithFiles, nowText: string) {
  const hashes = `sha256 ${shortHash(then.mapping)} vs ${shortHash(now.mapping)}`;
  if (files.mappingText === undefined) {
    return {
      difference: {
        said:
          `a mapping file that differs from the one this journal was made with (${hashes}; the journal was made by an ` +
          'earlier version, which kept only its hash, so the keys that changed cannot be named)',
        resume: 'the mapping file as it was',
      },
      changes: [],
    };
  }
  const changes = changedPaths(parsedMapping(files.mappingText), parsedMapping(nowText));
  if (changes.length === 0) {
    return {
      difference: {
        said: `a mapping file whose text differs though no key changed (comments or layout only; ${hashes})`,
        resume: 'the mapping file as it was',
      },
      changes,
    };
  }
  const keys = changes.length === 1 ? 'key' : 'keys';
  return {
    difference: {
      said: `a mapping that differs in ${keys} ${describeChangedPaths(changes)}`,
      resume: `the mapping as it was (${describeValuesThen(changes)})`,
    },
    changes,
  };
}

/** Every part of this run that differs from the journal's, in the order a reader checks them. */
export function importDifferences(
  then: RecordedImportFingerprint,
  now: ImportFingerprint,
  files: MadeWithFiles,
  current: { mappingText: string; inputFile: string },
): MadeWithDifference[] {
  const recorded = { ...now, ...then };
  const differences: MadeWithDifference[] = [];
  if (recorded.format !== now.format)
    differences.push({
      said: `a journal of format ${shownValue(recorded.format)}, written by another version of bulk-disputes (this one writes ${now.format})`,
      resume: 'the version that made it',
    });
  if (recorded.input !== now.input) differences.push(inputDifference(recorded, now, files, current.inputFile));
  let mappingChanges: { path: string; then: unknown; now: unknown }[] = [];
  if (recorded.mapping !== now.mapping) {
    const { difference, changes } = mappingDifference(recorded, now, files, current.mappingText);
    differences.push(difference);
    mappingChanges = changes;
  }
  // A file mode the mapping's file_mode explains is said once, as the mapping's key.
  const fileModeFromMapping = mappingChanges.some(
    (change) => change.path === 'file_mode' && change.now === now.fileMode,
  );
  if (recorded.fileMode !== now.fileMode && !fileModeFromMapping)
    differences.push(flagDifference('--file-mode', recorded.fileMode, now.fileMode));
  const shardText = (shard: Shard | null) =>
    shard === null ? undefined : `${String(shard.index)}/${String(shard.count)}`;
  return [
    ...differences,
    ...flagDifferences([
      ['--shard', shardText(recorded.shard), shardText(now.shard)],
      ['--dry-run', recorded.dryRun, now.dryRun],
      ['--sheet', then.sheet, now.sheet],
      ['--id-prefix', then.idPrefix, now.idPrefix],
    ]),
  ];
}

/** The refusal of a run whose input, mapping or flags differ from the journal's. */
export const importMismatch = madeWithRefusal(
  'input, mapping and flags',
  'claims created before are recognised by their ids, never duplicated',
  importDifferences,
);
