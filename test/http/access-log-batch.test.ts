/**
 * The access log's batches (src/http/access-log-batch.ts): lines are encoded as they come and
 * handed over whole buffers at a time, in order, as the same bytes their text would be.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { lineBatch, type LineBatch } from '../../src/http/access-log-batch.ts';
import { LineDestination } from '../../src/logger.ts';

/** Writes a line of text through the batch's room (3 bytes at most a UTF-16 unit). */
function write(batch: LineBatch, line: string): void {
  const buffer = batch.reserve(line.length * 3);
  batch.commit(batch.offset() + buffer.write(line, batch.offset()));
}

/** A pino logger on a LineDestination whose bytes are kept, as the serving logger writes. */
function capturingLogger(): { log: pino.Logger; chunks: Buffer[] } {
  const chunks: Buffer[] = [];
  const bytes = {
    write: (data: Buffer) => chunks.push(data) > 0,
    flush: (callback?: () => void) => callback?.(),
    flushSync: () => {},
  };
  return { log: pino({ level: 'info' }, new LineDestination(bytes)), chunks };
}

test('lines reach the destination in order as their UTF-8 bytes, a batch at a time', () => {
  const { log, chunks } = capturingLogger();
  const batch = lineBatch(log, 1_000, 60_000)!;
  const lines = Array.from(
    { length: 40 },
    (_, i) => `{"n":${i},"name":"Zoë ${'é'.repeat(i)} 🎮"}\n`,
  );
  for (const line of lines) write(batch, line);
  assert.ok(chunks.length > 1, 'handed over a batch at a time');
  batch.close();
  assert.equal(Buffer.concat(chunks).toString('utf8'), lines.join(''));
  assert.ok(chunks.slice(0, -1).every((chunk) => chunk.length >= 1_000));
});

test('a line longer than a batch holds is handed over whole, after the lines before it', () => {
  const { log, chunks } = capturingLogger();
  const batch = lineBatch(log, 100, 60_000)!;
  const long = `{"long":"${'x'.repeat(500)}"}\n`;
  write(batch, '{"first":1}\n');
  write(batch, long);
  write(batch, '{"last":1}\n');
  batch.close();
  assert.equal(Buffer.concat(chunks).toString('utf8'), `{"first":1}\n${long}{"last":1}\n`);
});

test('what waits is handed over within the flush interval', async () => {
  const { log, chunks } = capturingLogger();
  const batch = lineBatch(log, 10_000, 5)!;
  write(batch, '{"a":1}\n');
  assert.equal(chunks.length, 0);
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(Buffer.concat(chunks).toString('utf8'), '{"a":1}\n');
  batch.close();
});

test("pino's own lines go through the same destination, encoded", () => {
  const { log, chunks } = capturingLogger();
  log.info({ who: 'Zoë' }, 'hello');
  const line = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
  assert.equal(line.who, 'Zoë');
  assert.equal(line.msg, 'hello');
});
