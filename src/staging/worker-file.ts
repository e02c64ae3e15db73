/**
 * The staging worker's compiled file, beside this one. Run from the TypeScript sources (vitest),
 * this module is src/staging/worker-file.ts and a worker thread cannot load TypeScript: it uses
 * the build in dist/ instead (`npm test` builds before it tests).
 */
export function stagingWorkerFile(): URL {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new URL('./worker.js', here);
  return new URL(here.replace(/\/src\/(?!.*\/src\/)/, '/dist/').replace(/worker-file\.ts$/, 'worker.js'));
}
