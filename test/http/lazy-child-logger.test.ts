import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { lazyChildLogger } from '../../src/http/lazy-child-logger.ts';

test("a request's logger is made on first use and logs with the request's id", () => {
  const lines: string[] = [];
  const parent = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  let children = 0;
  const counted = Object.create(parent) as FastifyBaseLogger;
  counted.child = (bindings, options) => {
    children++;
    return parent.child(bindings, options);
  };

  const unused = lazyChildLogger(counted, { reqId: 'req-1' }, {});
  assert.equal(children, 0, 'nothing made for a request that logs nothing');
  void unused;

  const used = lazyChildLogger(counted, { reqId: 'req-2' }, {});
  used.warn({ asset: 'a' }, 'telemetry storage unavailable');
  used.debug('below the level');
  assert.equal(children, 1);
  assert.equal(used.level, 'info');
  assert.equal(lines.length, 1);
  const line = JSON.parse(lines[0]!);
  assert.equal(line.reqId, 'req-2');
  assert.equal(line.level, 40);
  assert.equal(line.asset, 'a');
  assert.equal(line.msg, 'telemetry storage unavailable');
});
