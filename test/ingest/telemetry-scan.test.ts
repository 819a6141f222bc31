import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateDemo, MIN_SCALE } from '../../src/demo/generate-demo.ts';
import { TALLIED_EVENT_TYPES, tallyMatchTelemetry } from '../../src/ingest/mastery-telemetry.ts';
import { TelemetryEventInput } from '../../src/ingest/match-input.ts';
import {
  eventTypes,
  parseKeptEvents,
  scanTelemetryEvents,
} from '../../src/ingest/telemetry-scan.ts';
import { splitTelemetry } from '../../src/ingest/telemetry-text.ts';
import { Value } from '@sinclair/typebox/value';

const KEEP = eventTypes(['LogPlayerKillV2', 'LogHeal']);
const D = '"_D":"2026-11-20T12:00:00.000Z"';

/** The events of a JSON array text that JSON.parse and the event schema accept, or null. */
function reference(text: string): unknown[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(parsed)) return null;
  return parsed.every((event) => Value.Check(TelemetryEventInput, event)) ? parsed : null;
}

/** What the scan makes of a text: the kept events parsed, or null; checks the scan's own figures. */
function scanned(text: string): unknown[] | null {
  const bytes = Buffer.from(text);
  const result = scanTelemetryEvents(bytes, 0, KEEP);
  if (result === null) return null;
  assert.equal(result.end, bytes.length, `the whole of ${text}`);
  const events = reference(text)!;
  assert.equal(result.count, events.length);
  return parseKeptEvents(bytes, result);
}

const kept = (events: unknown[]): unknown[] =>
  events.filter((event) => ['LogPlayerKillV2', 'LogHeal'].includes((event as { _T: string })._T));

test('a telemetry array is taken as JSON.parse and the event schema take it, its kept events parsed alone', () => {
  const valid = [
    '[]',
    '[ \n\t\r]',
    `[{"_T":"LogHeal",${D},"healAmount":12.5}]`,
    `[{"_T":"LogPlayerPosition",${D},"x":-0,"y":1E2,"z":0.125e-3,"a":[],"o":{}},\n{${D},"_T":"LogHeal"}]`,
    `[{"_T":"LogPlayerKillV2",${D},"s":"a\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\uD83D","n":[true,false,null,[[{}]]]}]`,
    `[{"_T":"LogHeal","_T":"LogPlayerKillV2",${D}}]`,
    `[{"_T":"LogHeal",${D},"name":"Zoë 🎯"}]`,
    `[ { "_T" : "LogHeal" , ${D} } , {"_T":"LogItemPickup",${D}} ]`,
  ];
  for (const text of valid) {
    const events = reference(text);
    assert.ok(events, `valid: ${text}`);
    assert.deepEqual(scanned(text), kept(events), text);
  }
  const refused = [
    '',
    '[',
    '[,]',
    '[1]',
    '[{}]',
    `[{"_T":"LogHeal",${D}},]`,
    `[{"_T":"LogHeal",${D},}]`,
    `[{"_T":"LogHeal",${D}]]`,
    `[{"_T":"LogHeal",${D}}}`,
    `[{"_T":"LogHeal",${D},"a":[1}}]`,
    `[{"_T":"LogHeal",${D},"a":{"b":1]}]`,
    `[{"_T":"LogHeal",${D}} {"_T":"LogHeal",${D}}]`,
    `[{"_T":"Heal",${D}}]`,
    `[{"_T":"Log",${D}}]`,
    `[{"_T":"LogHe-al",${D}}]`,
    `[{"_T":"LogHeal","_D":"2026-11-20T12:00"}]`,
    `[{"_T":"LogHeal"}]`,
    `[{${D}}]`,
    `[{"_T":7,${D}}]`,
    `[{"_T":"LogHeal","_D":null}]`,
    ...['01', '1.', '.5', '-', '1e', '1e+', '+1', '0x1', '1.e2', '--1', 'NaN', 'Infinity'].map(
      (number) => `[{"_T":"LogHeal",${D},"n":${number}}]`,
    ),
    ...['tru', 'nul', 'True', 'undefined', "'a'", '"\\x41"', '"\\u12G4"', '"a\tb"', '"\\'].map(
      (value) => `[{"_T":"LogHeal",${D},"v":${value}}]`,
    ),
    `[{"_T":"LogHeal",${D},"o":{"a" 1}}]`,
    `[{"_T":"LogHeal",${D},"o":{1:2}}]`,
    `[{"_T":"LogHeal",${D},"a":[1 2]}]`,
    `[{"_T":"LogHeal",${D},"a":[1,]}]`,
    `[{"_T":"LogHeal",${D},"a":{"b":[}]}]`,
  ];
  for (const text of refused) {
    assert.equal(reference(text), null, `invalid: ${text}`);
    assert.equal(scanned(text), null, text);
  }
});

test('kept events are parsed in batches: across their bounds, and one larger than a batch alone', () => {
  const event = (i: number, bytes: number): string =>
    `{"_T":"${i % 3 === 0 ? 'LogPlayerPosition' : 'LogHeal'}",${D},"i":${i},"pad":"${'x'.repeat(bytes)}"}`;
  const texts = Array.from({ length: 600 }, (_, i) => event(i, 300 + ((i * 37) % 900)));
  texts.splice(250, 0, event(1000, 300_000));
  const text = `[${texts.join(',')}]`;
  const events = reference(text)!;
  const parsed = scanned(text)!;
  assert.equal(parsed.length, kept(events).length);
  assert.deepEqual(parsed, kept(events));
  // Parsed again from the same batch buffer: the first read left nothing behind.
  assert.deepEqual(scanned(`[${event(1, 10)}]`), [JSON.parse(event(1, 10))]);
});

test('what the scan cannot tell for certain is left to JSON.parse, valid or not', () => {
  const undecided = [
    // A key or _T written with escapes may be `_T`, or a type of the schema's.
    `[{"\\u005fT":"LogHeal",${D}}]`,
    `[{"_T":"Log\\u0048eal",${D}}]`,
    `[{"_T":"LogHeal",${D},"\\u0061":1}]`,
    // A _D beyond ASCII: its length in characters is not its byte count.
    `[{"_T":"LogHeal","_D":"2026-11-20T12:00:00.000Zé"}]`,
    // Nesting deeper than the scan follows.
    `[{"_T":"LogHeal",${D},"n":${'['.repeat(70)}${']'.repeat(70)}}]`,
  ];
  for (const text of undecided) {
    assert.ok(reference(text), `valid: ${text}`);
    assert.equal(scanned(text), null, text);
  }
});

test('no text a byte away from a valid one is taken when JSON.parse or the schema refuses it', () => {
  const base =
    `[{"_T":"LogPlayerKillV2",${D},"killer":{"name":"a\\"b","health":100.5,"loc":[1e3,-2,0]},` +
    `"ok":true,"no":null},{"_T":"LogPlayerPosition",${D},"x":-12.75E+1,"s":"\\u00e9"},` +
    `{"_T":"LogHeal",${D},"healAmount":0}]`;
  assert.ok(reference(base));
  const alphabet = '{}[]",:\\ 0123456789.-+eEtrufalsn_TDLog\t\n\u0001x';
  // A fixed sequence, so that a failure is the same on every run.
  let seed = 20261202;
  const random = (below: number): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % below;
  };
  let accepted = 0;
  for (let round = 0; round < 6000; round++) {
    const at = random(base.length);
    const char = alphabet[random(alphabet.length)]!;
    const how = random(3);
    const text =
      how === 0
        ? base.slice(0, at) + char + base.slice(at + 1)
        : how === 1
          ? base.slice(0, at) + base.slice(at + 1)
          : base.slice(0, at) + char + base.slice(at);
    const events = reference(text);
    const result = scanned(text);
    if (events === null) assert.equal(result, null, `refused by JSON.parse: ${text}`);
    else if (result !== null) {
      accepted++;
      assert.deepEqual(result, kept(events), text);
    }
  }
  // Most changes that keep the text valid are taken, not left to JSON.parse.
  assert.ok(accepted > 500, `taken: ${accepted}`);
});

test('the telemetry array found in a match text, the rest parsed apart, as JSON.parse reads the whole', () => {
  const events = `[{"_T":"LogHeal",${D},"s":"]}\\"{"},{"_T":"LogPlayerPosition",${D}}]`;
  const split = (text: string) => {
    const result = splitTelemetry(Buffer.from(text), KEEP);
    if (result === null) return null;
    const rest = JSON.parse(result.rest) as Record<string, unknown>;
    const whole = JSON.parse(text) as Record<string, unknown>;
    assert.deepEqual(rest, { ...whole, telemetry: [] }, 'the rest is the whole without its events');
    assert.deepEqual(JSON.parse(result.events.toString()), whole.telemetry);
    return result.events.toString();
  };
  assert.equal(split(`{"id":"a","telemetry":${events},"b":[1]}`), events);
  assert.equal(split(`{"telemetry":[],"x":{"telemetry":[1]},"telemetry" : ${events}}`), events);
  // The last of repeated members wins, as in JSON.parse; one that is not an array is not read.
  assert.equal(split(`{"telemetry":${events},"telemetry":"none"}`), null);
  assert.equal(split(`{"telemetry":${events},"telemetry":null}`), null);
  assert.equal(split(`{"telemetry":${events},"telemetry":{"a":1}}`), null);
  assert.equal(split(`{"telemetry":${events},"tele\\u006detry":[]}`), null);
  assert.equal(split(`{"a":"telemetry","b":[{"telemetry":${events}}]}`), null);
  // Events the scan refuses leave the whole text to JSON.parse.
  assert.equal(splitTelemetry(Buffer.from('{"telemetry":[{"_T":"Heal"}]}'), KEEP), null);
  // Not valid outside the events: the rest does not parse either.
  const broken = splitTelemetry(Buffer.from(`{"id":"a",,"telemetry":${events}}`), KEEP);
  assert.ok(broken);
  assert.throws(() => JSON.parse(broken.rest), SyntaxError);
});

test('the tally reads no event of a type outside TALLIED_EVENT_TYPES', () => {
  const plan = generateDemo({
    seed: 11,
    now: Date.parse('2026-11-20T12:00:00Z'),
    scale: MIN_SCALE,
  });
  let matches = 0;
  for (const match of plan.matches()) {
    const events = match.telemetry;
    if (events === undefined) continue;
    const tracked = match.rosters.flatMap((r) => r.participants.map((p) => p.playerId));
    const only = events.filter((event) => TALLIED_EVENT_TYPES.has(event._T));
    assert.ok(only.length < events.length);
    assert.deepEqual(tallyMatchTelemetry(only, tracked), tallyMatchTelemetry(events, tracked));
    if (++matches === 3) break;
  }
  assert.equal(matches, 3);
});
