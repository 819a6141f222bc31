/**
 * Opens (and so migrates) a SQLite store in a process of its own (open-store-process.ts):
 * resolves its exit code and everything it printed.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const OPENER = path.join(import.meta.dirname, 'open-store-process.ts');

export function openStoreInProcess(file: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', OPENER, file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, output }));
  });
}
