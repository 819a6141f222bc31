import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventsJson } from '../../src/ingest/telemetry-file.ts';
import { sampleTelemetry } from '../helpers/matches.ts';

/** The bytes JSON.stringify gives: what a file of parsed events held before. */
const stringified = (events: unknown[]): Buffer => Buffer.from(JSON.stringify(events));

test('events are written as the very bytes JSON.stringify of the array gives', () => {
  const events = sampleTelemetry('9a1f7c2e-0b4d-4e8a-9c3f-5d6e7f8a9b0c', Date.now());
  assert.ok(eventsJson(events).equals(stringified(events)));
  assert.equal(eventsJson([]).toString(), '[]');
});

test('text that is not ASCII, and elements JSON has no text for, come out alike', () => {
  const cases: unknown[][] = [
    [{ _T: 'LogChat', name: 'Ünsal', text: '勝った 😀' }],
    [{ a: 1 }, undefined, () => 1, null, 1.5, 'x', [1e-7, 1.0], { skip: undefined }],
    [{ lone: '\ud800' }, { a: 'é' }, { b: 'plain' }],
    ['é'.repeat(5000), 'a'.repeat(5000)],
  ];
  for (const events of cases) {
    assert.equal(eventsJson(events).toString(), stringified(events).toString());
    assert.ok(eventsJson(events).equals(stringified(events)));
  }
});
