import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { CONFIG_VARIABLES, ConfigError, ingestWorkersOf, loadConfig } from '../src/config.ts';

test('defaults give a runnable configuration', () => {
  const config = loadConfig({});
  assert.equal(config.port, 8080);
  assert.equal(config.retentionDays, 14);
  assert.equal(config.publicBaseUrl, 'http://localhost:8080');
  assert.equal(config.telemetryBaseUrl, 'http://localhost:8080/telemetry');
  assert.equal(config.databaseUrl, `sqlite:${path.resolve('data', 'gamedata.sqlite')}`);
  assert.equal(config.shardAliases.steam, 'pc-b');
  assert.ok(Object.isFrozen(config));
});

test('every problem is reported at once', () => {
  assert.throws(
    () =>
      loadConfig({
        PORT: 'eighty',
        RETENTION_DAYS: '-1',
        DATABASE_URL: 'mysql://x',
        DEMO_DATA: 'maybe',
      }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      const joined = error.problems.join('\n');
      for (const name of ['PORT', 'RETENTION_DAYS', 'DATABASE_URL', 'DEMO_DATA']) {
        assert.match(joined, new RegExp(name), `${name} should be reported`);
      }
      return true;
    },
  );
});

test('a postgres URL selects PostgreSQL and base URLs lose trailing slashes', () => {
  const config = loadConfig({
    DATABASE_URL: 'postgres://u@db/gamedata',
    PUBLIC_BASE_URL: 'https://api.example.org/',
  });
  assert.equal(config.databaseUrl, 'postgres://u@db/gamedata');
  assert.equal(config.publicBaseUrl, 'https://api.example.org');
  assert.equal(config.telemetryBaseUrl, 'https://api.example.org/telemetry');
});

test('shard aliases: none, custom pairs, and refusals', () => {
  assert.deepEqual(loadConfig({ SHARD_ALIASES: 'none' }).shardAliases, {});
  assert.deepEqual(loadConfig({ SHARD_ALIASES: 'main=pc-b' }).shardAliases, { main: 'pc-b' });
  assert.throws(() => loadConfig({ SHARD_ALIASES: 'main=nowhere' }), /not a shard/);
  assert.throws(() => loadConfig({ SHARD_ALIASES: 'pc-a=pc-b' }), /already a shard/);
});

test('telemetry files go to a directory under DATA_DIR unless BLOB_STORE_URL names a bucket', () => {
  assert.deepEqual(loadConfig({ DATA_DIR: '/srv/gd' }).blobStore, {
    kind: 'directory',
    root: path.resolve('/srv/gd/blobs'),
  });
  const config = loadConfig({
    BLOB_STORE_URL: 's3://game-telemetry/live/v1/',
    S3_ENDPOINT: 'http://127.0.0.1:9000/',
    S3_FORCE_PATH_STYLE: 'true',
  });
  assert.deepEqual(config.blobStore, {
    kind: 's3',
    bucket: 'game-telemetry',
    prefix: 'live/v1',
    endpoint: 'http://127.0.0.1:9000',
    forcePathStyle: true,
    timeoutMs: 3000,
  });
  assert.deepEqual(loadConfig({ BLOB_STORE_URL: 's3://game-telemetry' }).blobStore, {
    kind: 's3',
    bucket: 'game-telemetry',
    prefix: '',
    endpoint: null,
    forcePathStyle: false,
    timeoutMs: 3000,
  });
});

test('object storage problems are reported with the others, at once', () => {
  const problemsOf = (env: Record<string, string>): string => {
    try {
      loadConfig(env);
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      return error.problems.join('\n');
    }
    assert.fail('the configuration was accepted');
  };
  const all = problemsOf({
    PORT: 'eighty',
    BLOB_STORE_URL: 's3://Not_A_Bucket/../up',
    S3_FORCE_PATH_STYLE: 'sometimes',
    S3_TIMEOUT_MS: '5',
  });
  for (const expected of [
    /PORT/,
    /"Not_A_Bucket" is not a bucket name/,
    /key prefix "\.\.\/up"/,
    /S3_FORCE_PATH_STYLE/,
    /S3_TIMEOUT_MS/,
  ]) {
    assert.match(all, expected);
  }
  assert.match(problemsOf({ BLOB_STORE_URL: '/var/blobs' }), /BLOB_STORE_URL/);
  assert.match(problemsOf({ S3_ENDPOINT: 'http://minio:9000' }), /S3_ENDPOINT: set, but/);
  assert.match(
    problemsOf({ BLOB_STORE_URL: 's3://b-1', S3_ENDPOINT: 'minio:9000' }),
    /S3_ENDPOINT/,
  );
});

test('the README documents every configuration variable', () => {
  const readme = fs.readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  for (const name of Object.keys(CONFIG_VARIABLES)) {
    assert.match(
      readme,
      new RegExp(`\\| \`${name}\`\\s+\\|`),
      `${name} is missing from the README`,
    );
  }
});

test('an upstream needs keys, keys need an upstream, and keys are never repeated', () => {
  const unset = loadConfig({});
  assert.equal(unset.upstream, null);
  const config = loadConfig({
    UPSTREAM_URL: 'http://upstream.example/',
    UPSTREAM_API_KEYS: 'k-one,k-two',
    UPSTREAM_PLAYER_TTL_SECONDS: '5',
  });
  assert.deepEqual(config.upstream, {
    url: 'http://upstream.example',
    keys: ['k-one', 'k-two'],
    timeoutMs: 10_000,
    ttlMs: { players: 5000, stats: 3_600_000, lists: 3_600_000 },
  });
  assert.throws(
    () => loadConfig({ UPSTREAM_URL: 'http://u.example' }),
    /UPSTREAM_API_KEYS: required/,
  );
  assert.throws(() => loadConfig({ UPSTREAM_API_KEYS: 'k' }), /UPSTREAM_API_KEYS: set, but/);
  assert.throws(
    () => loadConfig({ UPSTREAM_URL: 'http://u.example', UPSTREAM_API_KEYS: 'secret key,x' }),
    (error: Error) => /UPSTREAM_API_KEYS/.test(error.message) && !error.message.includes('secret'),
  );
});

test('MIRROR_SHARDS names the shards a crawl walks: every platform with samples by default', () => {
  assert.deepEqual(loadConfig({}).mirrorShards, ['pc-a', 'pc-b', 'console-a', 'console-b']);
  assert.deepEqual(loadConfig({ MIRROR_SHARDS: 'pc-b,pc-na,pc-b' }).mirrorShards, [
    'pc-b',
    'pc-na',
  ]);
  assert.throws(
    () => loadConfig({ MIRROR_SHARDS: 'pc-b,mars' }),
    /MIRROR_SHARDS: "mars" is not a shard/,
  );
  assert.throws(() => loadConfig({ MIRROR_SHARDS: 'pc-b,,x' }), /MIRROR_SHARDS/);
});

test('prepare workers: INGEST_WORKERS for both commands, else one fewer than the cores', () => {
  const unset = loadConfig({});
  assert.equal(ingestWorkersOf(unset, 'ingest'), os.availableParallelism() - 1);
  // serve keeps one even on one core: posted matches are prepared beside serving, not in it.
  assert.equal(ingestWorkersOf(unset, 'ingest', 1), 0);
  assert.equal(ingestWorkersOf(unset, 'serve', 1), 1);
  assert.equal(ingestWorkersOf(unset, 'ingest', 4), 3);
  assert.equal(ingestWorkersOf(unset, 'serve', 4), 3);
  for (const given of ['0', '3']) {
    const config = loadConfig({ INGEST_WORKERS: given });
    for (const cores of [1, 4]) {
      assert.equal(ingestWorkersOf(config, 'ingest', cores), Number(given));
      assert.equal(ingestWorkersOf(config, 'serve', cores), Number(given));
    }
  }
});
