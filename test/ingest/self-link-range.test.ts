import { test } from 'node:test';
import assert from 'node:assert/strict';
import { selfLinkRange } from '../../src/ingest/self-link-range.ts';

const rangeText = (text: string): string | null => {
  const bytes = Buffer.from(text);
  const range = selfLinkRange(bytes);
  return range === null ? null : bytes.subarray(range.start, range.end).toString();
};

test('finds the top-level links.self string, quotes included, wherever the members are', () => {
  assert.equal(rangeText('{"links":{"self":"https://a/x"},"meta":{}}'), '"https://a/x"');
  const nested = JSON.stringify({
    data: { links: { self: 'inner' }, attributes: { note: '"links": {"self": "fake"}' } },
    included: [{ links: { self: 'item' } }, 3, null, true, 'x'],
    meta: {},
    links: { schema: '', self: 'https://api.pubg.com/shards/steam/clans/clan.1' },
  });
  assert.equal(rangeText(nested), '"https://api.pubg.com/shards/steam/clans/clan.1"');
  const pretty = JSON.stringify({ data: { n: -1.5e3 }, links: { self: 'é/\\"q' } }, null, 2);
  assert.equal(JSON.parse(rangeText(pretty)!), 'é/\\"q', 'multi-byte and escaped characters');
});

test('null when there is no top-level links.self string', () => {
  for (const text of [
    '{"data":{"links":{"self":"inner"}}}',
    '{"links":{"schema":""}}',
    '{"links":{"self":null}}',
    '[{"links":{"self":"x"}}]',
    '{}',
  ]) {
    assert.equal(rangeText(text), null, text);
  }
});
