import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import zlib from 'node:zlib';
import { buildProgram } from '../../src/cli/program.ts';

/** Runs `gamedata demo …` in-process against a data directory. */
async function demo(dataDir: string, ...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const program = buildProgram(
    {
      env: { DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      out: (line) => out.push(line),
      err: (line) => err.push(line),
      interactive: false,
    },
    async () => {
      throw new Error('serve is not under test here');
    },
  );
  // Settings are not inherited by commands made before them: set them on `demo` itself.
  const command = program.commands.find((c) => c.name() === 'demo')!;
  for (const c of [program, command])
    c.exitOverride().configureOutput({
      writeErr: (line) => err.push(line),
      writeOut: (line) => out.push(line),
    });
  process.exitCode = 0;
  try {
    await program.parseAsync(['node', 'gamedata', 'demo', ...args]);
  } catch {
    // exitOverride throws on a refused option; the message is in `err`.
  }
  const exitCode = process.exitCode ?? 0;
  process.exitCode = 0;
  return { out, err, exitCode };
}

/** Every telemetry file the demo stored (gzip or not, whatever the blob store names them), parsed. */
function telemetryFiles(dir: string): Array<Array<Record<string, unknown>>> {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /-telemetry\.json(\.gz)?$/.test(e.name))
    .map((e) => {
      const bytes = fs.readFileSync(path.join(e.parentPath, e.name));
      const gzipped = bytes[0] === 0x1f && bytes[1] === 0x8b;
      return JSON.parse((gzipped ? zlib.gunzipSync(bytes) : bytes).toString());
    });
}

test('demo --telemetry full stores telemetry at the real rates; an unknown profile is refused', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-demo-'));
  try {
    const refused = await demo(dir, '--telemetry', 'huge');
    assert.match(refused.err.join('\n'), /--telemetry.*huge|huge.*default, full/s);

    const run = await demo(
      dir,
      '--seed',
      '3',
      '--scale',
      '0.01',
      '--now',
      '2026-11-20T12:00:00Z',
      '--telemetry',
      'full',
    );
    assert.equal(run.exitCode, 0, run.err.join('\n'));
    assert.ok(
      run.out.some((line) => /^Demo data: \d+ matches/.test(line)),
      run.out.join('\n'),
    );
    const files = telemetryFiles(dir);
    assert.ok(files.length >= 10, `${files.length} telemetry files`);
    for (const events of files) {
      const last = new Map<string, number>();
      let widest = 0;
      for (const e of events) {
        if (e._T !== 'LogPlayerPosition') continue;
        const id = (e.character as { accountId: string }).accountId;
        const at = Date.parse(e._D as string);
        if (last.has(id)) widest = Math.max(widest, at - last.get(id)!);
        last.set(id, at);
      }
      assert.ok(widest > 0 && widest <= 10_000, `positions every ${widest} ms`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
