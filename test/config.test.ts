import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from '../src/config.ts';

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
