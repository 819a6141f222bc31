/**
 * The access line is formatted by hand (src/http/access-log.ts) but must stay the line pino
 * would write for the same fields, byte for byte: same keys in the same order, same escaping,
 * same numbers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import os from 'node:os';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { registerAccessLog } from '../../src/http/access-log.ts';
import { LineDestination } from '../../src/logger.ts';

/** A pino logger whose lines (access lines included) are kept as the bytes written. */
function capturingLogger(): { log: pino.Logger; text: () => string } {
  const chunks: Buffer[] = [];
  const bytes = {
    write: (data: Buffer) => chunks.push(data) > 0,
    flush: (callback?: () => void) => callback?.(),
    flushSync: () => {},
  };
  const log = pino({ level: 'info' }, new LineDestination(bytes));
  return { log, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** What pino itself writes for these fields at `time`. */
function pinoLine(time: number, fields: Record<string, unknown>): string {
  let out = '';
  const log = pino(
    { level: 'info', timestamp: () => `,"time":${time}` },
    { write: (line: string) => (out += line) },
  );
  log.info(fields, 'request');
  return out;
}

test('access lines are the lines pino writes for the same fields', async () => {
  const { log, text } = capturingLogger();
  const app = Fastify({ loggerInstance: log as FastifyBaseLogger });
  const lines = registerAccessLog(app, 60_000)!;
  app.get('/things/:id', async () => ({ ok: true }));
  await app.ready();
  assert.equal((await app.inject({ method: 'GET', url: '/things/1' })).statusCode, 200);
  assert.equal((await app.inject({ method: 'GET', url: '/nothing' })).statusCode, 404);
  const fast = lines('/shards/:shard/matches/:id');
  // The fast path's ids are numbers of the sequence, written in base 36 as Fastify's text ids.
  fast(36 * 36 - 1, 12.345, null);
  fast('req "odd" id', 0.004, 'key-é"\\1');
  fast(1, 1_234_567.891, 'k1');
  fast(0x7fffffff, 3, 'clé');
  fast(0, 0.1, 'k1');
  await app.close();

  const written = text()
    .split('\n')
    .filter((line) => line.includes('"msg":"request"'));
  assert.equal(written.length, 7);
  for (const line of written) {
    const fields = JSON.parse(line) as Record<string, unknown>;
    assert.equal(fields.pid, process.pid);
    assert.equal(fields.hostname, os.hostname());
    const own = { ...fields };
    for (const name of ['level', 'time', 'pid', 'hostname', 'msg']) delete own[name];
    assert.equal(`${line}\n`, pinoLine(fields.time as number, own));
  }
  assert.deepEqual(
    written
      .slice(2)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .map((f) => [f.reqId, f.ms, f.keyId]),
    [
      ['req-zz', 12.35, null],
      ['req "odd" id', 0, 'key-é"\\1'],
      ['req-1', 1_234_567.89, 'k1'],
      [`req-${(0x7fffffff).toString(36)}`, 3, 'clé'],
      ['req-0', 0.1, 'k1'],
    ],
  );
});

test('a line longer than a whole batch is written whole, between the lines around it', async () => {
  const { log, text } = capturingLogger();
  const app = Fastify({ loggerInstance: log as FastifyBaseLogger });
  const lines = registerAccessLog(app, 60_000)!;
  await app.ready();
  const fast = lines('/shards/:shard/players/:accountId');
  const longKey = `key-${'é'.repeat(40_000)}`;
  fast(1, 0.5, 'k1');
  fast(2, 0.5, longKey);
  fast(3, 0.5, 'k3');
  await app.close();
  const written = text()
    .split('\n')
    .filter((line) => line.includes('"msg":"request"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  assert.deepEqual(
    written.map((fields) => [fields.reqId, fields.keyId]),
    [
      ['req-1', 'k1'],
      ['req-2', longKey],
      ['req-3', 'k3'],
    ],
  );
});
