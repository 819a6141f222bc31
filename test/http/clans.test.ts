import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp, TEST_BASE_URL, type TestApp } from '../helpers/app.ts';
import { accountId, makeMatchInput } from '../helpers/matches.ts';
import { HAVE_FIXTURES, assertSameShape, loadFixture } from '../helpers/fixture-shapes.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { ingestEntity } from '../../src/ingest/ingest-entity.ts';
import { IngestError } from '../../src/ingest/ingest-error.ts';

const HOUR = 3_600_000;
const CLAN = 'clan.0123456789abcdef0123456789abcdef';
const RIVALS = 'clan.fedcba9876543210fedcba9876543210';
const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const player = (index: number) => accountId(`clan-player-${index}`);

for (const database of testDatabases) {
  describe(`clans and player status (${database.name})`, () => {
    let t: TestApp;
    const deps = () => ({ store: t.store, blobs: t.blobs, config: t.config, clock: t.clock });
    const ingest = (item: unknown) => ingestEntity(deps(), item);
    const get = (url: string, headers: Record<string, string> = t.auth) =>
      t.app.inject({ url, headers });
    const clanInput = (overrides: Record<string, unknown> = {}) => ({
      kind: 'clan',
      platform: 'pc-b',
      id: CLAN,
      name: 'Night Owls',
      tag: 'OWL',
      level: 7,
      members: [player(0), player(1), player(2)],
      ...overrides,
    });
    const clanCount = async (id = CLAN) =>
      (await get(`/shards/pc-b/clans/${id}`)).json().data.attributes.clanMemberCount;
    const playerAttributes = async (index: number) =>
      (await get(`/shards/pc-b/players/${player(index)}`)).json().data.attributes;

    before(async () => {
      t = await createTestApp(database);
      await ingestMatch(
        deps(),
        makeMatchInput({
          seed: 'clans',
          rosters: 2,
          playersPerRoster: 3,
          player: ({ index }) => ({ playerId: player(index), name: `ClanPlayer${index}` }),
          overrides: { createdAt: iso(t.clock.now() - HOUR) },
        }),
      );
    });
    after(() => t.close());

    test('players enter innocent and clanless', async () => {
      const attributes = await playerAttributes(0);
      assert.equal(attributes.banType, 'Innocent');
      assert.equal(attributes.clanId, '');
    });

    test('a clan input stores the clan and its members; the document counts them', async () => {
      assert.deepEqual(await ingest(clanInput()), { status: 'ingested', kind: 'clan', id: CLAN });
      const response = await get(`/shards/pc-b/clans/${CLAN}`);
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json(), {
        data: {
          type: 'clan',
          id: CLAN,
          attributes: { clanName: 'Night Owls', clanTag: 'OWL', clanLevel: 7, clanMemberCount: 3 },
        },
        links: { self: `${TEST_BASE_URL}/shards/pc-b/clans/${CLAN}` },
        meta: {},
      });
      assert.equal((await playerAttributes(1)).clanId, CLAN);
      assert.equal((await playerAttributes(3)).clanId, '');
      assert.equal((await get(`/shards/steam/clans/${CLAN}`)).statusCode, 200, 'vendor name');
      assert.deepEqual(await ingest(clanInput()), { status: 'duplicate', kind: 'clan', id: CLAN });
    });

    test('a new membership list replaces the old one; members can move between clans', async () => {
      await ingest(clanInput({ members: [player(0), player(3)] }));
      assert.equal(await clanCount(), 2);
      assert.equal((await playerAttributes(1)).clanId, '', 'left the clan');
      await ingest(clanInput({ id: RIVALS, name: 'Larks', tag: 'LRK', members: [player(3)] }));
      assert.equal(await clanCount(), 1, 'player 3 moved to the rivals');
      assert.equal(await clanCount(RIVALS), 1);
      await ingest(clanInput({ level: 8, members: undefined }));
      assert.equal(await clanCount(), 1, 'no members listed: membership unchanged');
      assert.equal((await get(`/shards/pc-b/clans/${CLAN}`)).json().data.attributes.clanLevel, 8);
    });

    test('a player status sets the ban type and the clan', async () => {
      const status = { kind: 'playerStatus', platform: 'pc-b', accountId: player(4) };
      await ingest({ ...status, banType: 'TemporaryBan' });
      await ingest({ ...status, clanId: CLAN });
      const attributes = await playerAttributes(4);
      assert.equal(attributes.banType, 'TemporaryBan');
      assert.equal(attributes.clanId, CLAN);
      assert.equal(await clanCount(), 2);
      await ingest({ ...status, clanId: '', banType: 'PermanentBan' });
      assert.deepEqual(await playerAttributes(4), {
        ...attributes,
        banType: 'PermanentBan',
        clanId: '',
      });
      const list = await get(`/shards/pc-b/players?filter[playerIds]=${player(4)}`);
      assert.equal(list.json().data[0].attributes.banType, 'PermanentBan');
      await ingestMatch(
        deps(),
        makeMatchInput({
          seed: 'after-ban',
          player: ({ index }) => ({ playerId: player(index + 4), name: `Renamed${index}` }),
          overrides: { createdAt: iso(t.clock.now() - HOUR / 2) },
        }),
      );
      const later = await playerAttributes(4);
      assert.equal(later.name, 'Renamed0', 'the new match was ingested');
      assert.equal(later.banType, 'PermanentBan', 'a match never resets the status');
      assert.deepEqual(await ingest({ ...status, banType: 'PermanentBan' }), {
        status: 'duplicate',
        kind: 'playerStatus',
        id: player(4),
      });
    });

    test('refused inputs name what is wrong and store nothing', async () => {
      const refused = async (item: unknown, field: RegExp) => {
        await assert.rejects(ingest(item), (error: unknown) => {
          assert.ok(error instanceof IngestError, String(error));
          assert.match(error.message, field);
          return true;
        });
      };
      const stranger = accountId('stranger');
      await refused(clanInput({ members: [player(5), stranger] }), /^members\/1: no player/);
      assert.equal((await playerAttributes(5)).clanId, '', 'nothing half written');
      await refused(clanInput({ id: 'clan.xyz' }), /^id: /);
      await refused(clanInput({ platform: 'tournament' }), /^platform: /);
      await refused(clanInput({ level: 0 }), /^level: /);
      await refused(clanInput({ extra: 1 }), /extra|additional/i);
      const status = { kind: 'playerStatus', platform: 'pc-b', accountId: player(5) };
      await refused({ ...status, banType: 'Guilty' }, /^banType: /);
      await refused(status, /^banType: a player status sets/);
      await refused(
        { ...status, accountId: stranger, banType: 'Innocent' },
        /^accountId: no player/,
      );
      await refused({ ...status, clanId: RIVALS.replace('f', '0') }, /^clanId: no clan/);
      assert.equal((await playerAttributes(5)).banType, 'Innocent');
    });

    test('unknown clans are a 404, other platforms do not share clans, a key is required', async () => {
      for (const url of [
        '/shards/pc-b/clans/clan.00000000000000000000000000000000',
        `/shards/pc-a/clans/${CLAN}`,
        '/shards/pc-b/clans/not-a-clan',
      ]) {
        const response = await get(url);
        assert.equal(response.statusCode, 404, url);
        assert.equal(response.json().errors[0].title, 'Not Found');
      }
      assert.equal((await get(`/shards/pc-eu/clans/${CLAN}`)).statusCode, 400);
      assert.equal((await get(`/shards/pc-b/clans/${CLAN}`, {})).statusCode, 401);
      assert.ok((await get(`/shards/pc-b/clans/${CLAN}`)).headers['x-ratelimit-remaining']);
    });

    test('the OpenAPI document describes the route; the example clan input is valid', async () => {
      const document = (await t.app.inject({ url: '/openapi.json' })).json();
      assert.equal(document.paths['/shards/{shard}/clans/{clanId}'].get.operationId, 'getClan');
      const example = JSON.parse(
        fs.readFileSync(new URL('../../schemas/example-clan.json', import.meta.url), 'utf8'),
      );
      assert.equal((await ingest(example)).status, 'ingested');
      assert.equal((await get(`/shards/pc-b/clans/${example.id}`)).statusCode, 200);
    });

    test('the shape of a recorded clan document', { skip: !HAVE_FIXTURES }, async () => {
      const recorded = loadFixture(
        'clan/pubgkt--ClansFixtures.kt.CLAN_RESPONSE_JSON.extracted.json',
      );
      // The recording was trimmed to `data`; the real service adds links and meta (REFERENCE §3.16).
      assertSameShape((await get(`/shards/pc-b/clans/${CLAN}`)).json(), recorded, {
        extra: ['links', 'meta'],
      });
    });
  });
}
