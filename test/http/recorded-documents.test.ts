import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp, TEST_BASE_URL, type TestApp } from '../helpers/app.ts';
import { accountId, makeMatchInput } from '../helpers/matches.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { ingestPath, type IngestSourceOptions } from '../../src/ingest/ingest-source.ts';
import { listSeasons } from '../../src/store/seasons.ts';
import { seasonAt } from '../../src/domain/seasons.ts';

const HOUR = 3_600_000;
const HERO = accountId('recorded-hero');
const ARCHIVED = accountId('recorded-only');
const CLAN = 'clan.d52aad6adcfb4c4783a85eb250f6e822';
const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A ranked stats document as the real service would send it, pretty-printed like a saved file. */
function recordedRanked(player: string, season: string, currentRankPoint: number): string {
  const stats = {
    currentTier: { tier: 'Crystal', subTier: '4' },
    currentRankPoint,
    bestTier: { tier: 'Crystal', subTier: '3' },
    bestRankPoint: currentRankPoint,
    roundsPlayed: 17,
    avgRank: 5.9411764,
    top10Ratio: 0.7647059,
    winRatio: 0.47058824,
    kills: 82,
  };
  const document = {
    data: {
      type: 'rankedplayerstats',
      attributes: { rankedGameModeStats: { squad: stats } },
      relationships: {
        player: { data: { type: 'player', id: player } },
        season: { data: { type: 'season', id: season } },
      },
    },
    links: { self: `https://api.pubg.com/shards/steam/players/${player}/seasons/${season}/ranked` },
    meta: {},
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

const recordedClan = (name: string) =>
  JSON.stringify({
    data: {
      type: 'clan',
      id: CLAN,
      attributes: { clanName: name, clanTag: 'KING', clanLevel: 20, clanMemberCount: 100 },
    },
  });

for (const database of testDatabases) {
  describe(`recorded documents (${database.name})`, () => {
    let t: TestApp;
    let now: number;
    let season: string;
    let dir: string;
    let files = 0;
    const deps = () => ({ store: t.store, blobs: t.blobs, config: t.config, clock: t.clock });
    const get = (url: string) => t.app.inject({ url, headers: t.auth });
    const rankedUrl = (player: string) => `/shards/pc-b/players/${player}/seasons/${season}/ranked`;
    /** Ingests `text` from a file, the way `gamedata ingest` does. */
    const ingestText = async (text: string, options: IngestSourceOptions = {}) => {
      const file = path.join(dir, `recording-${files++}.json`);
      fs.writeFileSync(file, text);
      const [result] = await ingestPath(deps(), file, options);
      return result!;
    };
    const rankedMatch = (seed: string, at: number) =>
      makeMatchInput({
        seed,
        rosters: 4,
        playersPerRoster: 4,
        player: ({ index }) =>
          index === 0
            ? { playerId: HERO, name: 'RecordedHero' }
            : { playerId: accountId(`${seed}-${index}`), name: `R${seed}${index}` },
        overrides: { createdAt: iso(at), matchType: 'competitive', gameMode: 'squad' },
      });

    before(async () => {
      t = await createTestApp(database);
      now = t.clock.now();
      season = seasonAt(await listSeasons(t.store.db, 'pc-b'), now)!.id;
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gamedata-recorded-'));
    });
    after(async () => {
      await t.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    test('a recorded ranked document is served as recorded, only links.self rewritten', async () => {
      const text = recordedRanked(ARCHIVED, season, 2647);
      const result = await ingestText(text);
      assert.deepEqual(
        { status: result.status, kind: 'kind' in result && result.kind },
        { status: 'ingested', kind: 'recorded rankedplayerstats' },
      );
      const response = await get(rankedUrl(ARCHIVED));
      assert.equal(response.statusCode, 200);
      const original = `https://api.pubg.com/shards/steam/players/${ARCHIVED}/seasons/${season}/ranked`;
      assert.equal(response.body, text.replace(original, `${TEST_BASE_URL}${rankedUrl(ARCHIVED)}`));
      assert.equal((await ingestText(text)).status, 'duplicate', 'the same recording again');
    });

    test('a recording wins until a ranked match played after it is ingested', async () => {
      await ingestText(recordedRanked(HERO, season, 3100), { recordedAt: now - 2 * HOUR });
      const points = async () =>
        (await get(rankedUrl(HERO))).json().data.attributes.rankedGameModeStats.squad
          .currentRankPoint;

      await ingestMatch(deps(), rankedMatch('before-recording', now - 3 * HOUR));
      assert.equal(await points(), 3100, 'an older match does not displace the recording');
      await ingestMatch(deps(), rankedMatch('after-recording', now - HOUR));
      // Two wins without kills: 1500 + 50 + 50.
      assert.equal(await points(), 1600, 'derived from both matches, the older one too');
      // A newer recording takes over again, and an older one arriving late changes nothing.
      assert.equal(
        (await ingestText(recordedRanked(HERO, season, 3200), { recordedAt: now - HOUR / 2 }))
          .status,
        'ingested',
      );
      assert.equal(await points(), 3200);
      assert.equal(
        (await ingestText(recordedRanked(HERO, season, 3300), { recordedAt: now - 5 * HOUR }))
          .status,
        'duplicate',
      );
      assert.equal(await points(), 3200);
    });

    test('a recorded clan needs a platform; it is served until the clan changes after it', async () => {
      const withoutPlatform = await ingestText(recordedClan('SPARKINGG'));
      assert.equal(withoutPlatform.status, 'error');
      assert.match('message' in withoutPlatform ? withoutPlatform.message : '', /--platform/);

      const text = recordedClan('SPARKINGG');
      await ingestText(text, { platform: 'steam', recordedAt: now - HOUR });
      const recorded = await get(`/shards/pc-b/clans/${CLAN}`);
      assert.equal(recorded.body, text, 'no links.self in the recording: served as given');

      // The recording created the clan, so a player status can name it; that change is newer.
      await ingestMatch(
        deps(),
        makeMatchInput({ seed: 'clan-member', overrides: { createdAt: iso(now - HOUR) } }),
      );
      const member = accountId(0);
      const status = { kind: 'playerStatus', platform: 'pc-b', accountId: member, clanId: CLAN };
      assert.equal((await ingestText(JSON.stringify([status])))?.status, 'ingested');
      const derived = (await get(`/shards/pc-b/clans/${CLAN}`)).json();
      assert.deepEqual(derived.data.attributes, {
        clanName: 'SPARKINGG',
        clanTag: 'KING',
        clanLevel: 20,
        clanMemberCount: 1,
      });
      assert.equal(derived.links.self, `${TEST_BASE_URL}/shards/pc-b/clans/${CLAN}`);
    });

    test('recordings that do not name what they are about are refused', async () => {
      const refusal = async (text: string, options: IngestSourceOptions, pattern: RegExp) => {
        const result = await ingestText(text, options);
        assert.equal(result.status, 'error');
        assert.match('message' in result ? result.message : '', pattern);
      };
      const document = JSON.parse(recordedRanked(ARCHIVED, season, 1));
      await refusal(
        recordedRanked(ARCHIVED, 'division.bro.official.pc-2099-01', 1),
        {},
        /^data\/relationships\/season: .* is not a season of pc-b/,
      );
      delete document.data.relationships.player;
      await refusal(JSON.stringify(document), {}, /^data\/relationships\/player: /);
      await refusal(recordedRanked(ARCHIVED, season, 1), { platform: 'nowhere' }, /^platform: /);
      await refusal(
        recordedRanked(ARCHIVED, season, 1),
        { recordedAt: now + 24 * HOUR },
        /^recordedAt: .* future/,
      );
      await refusal(
        JSON.stringify({ data: { type: 'clan', id: CLAN, attributes: { clanName: 'X' } } }),
        { platform: 'steam' },
        /^data\/attributes\/clanTag: /,
      );
    });
  });
}
