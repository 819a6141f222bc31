import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { runCliIn } from '../helpers/cli.ts';
import { loadConfig } from '../../src/config.ts';
import { openRuntime } from '../../src/runtime.ts';
import { buildApp } from '../../src/app.ts';
import { makeMatchInput, sampleTelemetry } from '../helpers/matches.ts';

const freshDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-ingest-cli-'));

test('keys create --scope ingest makes a key that ingests and cannot read; list shows scopes', async () => {
  const dir = freshDir();
  try {
    const created = await runCliIn(
      dir,
      'keys',
      'create',
      '--name',
      'game-server-1',
      '--scope',
      'ingest',
    );
    assert.match(
      created.out[0]!,
      /^Created ingest key key_[0-9a-f]{12} "game-server-1" \(120 requests\/minute\)/,
    );
    const ingestKey = created.out.at(-1)!;
    const reader = (await runCliIn(dir, 'keys', 'create', '--name', 'site')).out.at(-1)!;

    const listed = (await runCliIn(dir, 'keys', 'list')).out.map((line) => line.split('\t'));
    assert.deepEqual(
      listed.map((columns) => [columns[1], columns[2], columns[3]]),
      [
        ['game-server-1', 'ingest', '120/min'],
        ['site', 'read', '10/min'],
      ],
    );

    const runtime = await openRuntime(loadConfig({ DATA_DIR: dir }));
    const app = await buildApp({ ...runtime, logger: false });
    try {
      const input = makeMatchInput({
        seed: 'cli-key',
        overrides: { createdAt: new Date(Date.now() - 3_600_000).toISOString() },
      });
      const post = (key: string) =>
        app.inject({
          method: 'POST',
          url: '/ingest/matches',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          payload: JSON.stringify(input),
        });
      assert.equal((await post(reader)).statusCode, 403);
      assert.equal((await post(ingestKey)).statusCode, 201);
      const read = (key: string) =>
        app.inject({ url: '/shards/pc-b/seasons', headers: { authorization: `Bearer ${key}` } });
      assert.equal((await read(ingestKey)).statusCode, 403);
      assert.equal((await read(reader)).statusCode, 200);
    } finally {
      await app.close();
      await runtime.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('ingest --telemetry attaches the file to a match stored without it, then reports unchanged', async () => {
  const dir = freshDir();
  try {
    const createdAt = Date.now() - 3_600_000;
    const input = makeMatchInput({
      seed: 'cli-attach',
      overrides: { createdAt: new Date(createdAt).toISOString() },
    });
    const matchFile = path.join(dir, 'match.json');
    fs.writeFileSync(matchFile, JSON.stringify(input));
    const telemetry = path.join(dir, 't.json.gz');
    fs.writeFileSync(
      telemetry,
      zlib.gzipSync(JSON.stringify(sampleTelemetry(input.id, createdAt))),
    );
    const other = path.join(dir, 'other.json');
    fs.writeFileSync(other, JSON.stringify(sampleTelemetry(input.id, createdAt + 1000)));

    const first = await runCliIn(dir, 'ingest', matchFile);
    assert.match(first.out[0]!, new RegExp(`^ingested  ${input.id}`));
    const attached = await runCliIn(dir, 'ingest', matchFile, '--telemetry', telemetry);
    assert.equal(attached.exitCode, 0);
    assert.match(attached.out[0]!, new RegExp(`^attached  ${input.id}`));
    assert.equal(
      attached.out.at(-1),
      '0 ingested, 1 given their telemetry, 0 unchanged, 0 refused',
    );
    const again = await runCliIn(dir, 'ingest', matchFile, '--telemetry', telemetry);
    assert.match(again.out[0]!, /^unchanged /);
    const refused = await runCliIn(dir, 'ingest', matchFile, '--telemetry', other);
    assert.equal(refused.exitCode, 1);
    assert.match(refused.err[0]!, /already has a different telemetry file/);

    const stored = fs
      .readdirSync(path.join(dir, 'blobs'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile());
    assert.equal(stored.length, 1);
    const bytes = fs.readFileSync(path.join(stored[0]!.parentPath, stored[0]!.name));
    assert.ok(bytes.equals(fs.readFileSync(telemetry)), 'the gzip file is stored as given');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
