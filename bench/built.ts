/**
 * The service as deployed: `npm start` runs the JavaScript `npm run build` writes into dist/, not
 * the TypeScript sources under tsx. tsx compiles every module in the process and keeps what it
 * made — about 60 MB more resident memory at the start of a service, more in each worker thread
 * it also loads into — so the bench builds dist/ once and measures the servers on it, as issue
 * 10's memory goal is about the service people run.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './project-root.ts';

/** The built entry point of the `gamedata` command. */
export const BUILT_MAIN = path.join(ROOT, 'dist/main.js');

/** Builds dist/ from the sources now (as `npm run build`); throws with tsc's output if it fails. */
export function buildService(log: (line: string) => void): void {
  log('Building dist/ from src/ (npm run build), as npm start runs it…');
  const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
  const run = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`npm run build failed:\n${run.stdout}${run.stderr}`);
}

/**
 * A built module of the service (`name` relative to dist/, e.g. `app.js`), typed as its source
 * (`import type * as App from '../src/app.ts'`, then `builtModule<typeof App>('app.js')`).
 */
export async function builtModule<T>(name: string): Promise<T> {
  return (await import(pathToFileURL(path.join(ROOT, 'dist', name)).href)) as T;
}
