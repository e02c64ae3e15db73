/**
 * The Node.js lines bulk-disputes runs on (docs/development.md, "Supported Node.js"). Below the
 * oldest, the SQLite binding does not load: on Node 20 it ends the process with a segmentation
 * fault, so the command line refuses before anything loads it, in one sentence, with exit 2.
 *
 * This module imports nothing, so that the command line (src/cli/bin.ts) and the library
 * (src/runtime/guard.ts) can ask before loading the rest.
 */
export const oldestSupported = { major: 22, minor: 12 } as const;

/** The line a new installation should take: the one the job's image and the docs name. */
export const recommendedLine = 24;

/** Why `version` ("22.23.3", as process.versions.node) cannot run the tool, or undefined when it can. */
export function runtimeRefusal(version: string): string | undefined {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major > oldestSupported.major || (major === oldestSupported.major && minor >= oldestSupported.minor))
    return undefined;
  return (
    `bulk-disputes needs Node.js ${String(oldestSupported.major)}.${String(oldestSupported.minor)} or later, and this is Node.js ${version}: ` +
    `install Node.js ${String(recommendedLine)} LTS (https://nodejs.org/en/download, or \`nvm install ${String(recommendedLine)}\`) and run it again.`
  );
}
