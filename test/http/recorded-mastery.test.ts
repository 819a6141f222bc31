import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp, TEST_BASE_URL, type TestApp } from '../helpers/app.ts';
import { accountId, makeMatchInput } from '../helpers/matches.ts';
import { damageInfo, telemetryAt } from '../helpers/telemetry-events.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { ingestPath, type IngestSourceOptions } from '../../src/ingest/ingest-source.ts';

const HOUR = 3_600_000;
const HERO = accountId(0);
const FOE = accountId(2);
const ARCHIVED = accountId('archived-only');
const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A weapon mastery document as the real service sends it, saved with its own spacing. */
function recordedWeapons(player: string, self: string | null, platform = 'steam'): string {
  const summary = {
    XPTotal: 952500,
    LevelCurrent: 99,
    TierCurrent: 6,
    StatsTotal: { MostDefeatsInAGame: 17, Defeats: 6933, DamagePlayer: 735905.5418539047 },
    OfficialStatsTotal: { Kills: 2596, LongestKill: 297 },
    CompetitiveStatsTotal: { Kills: 776, LongestKill: 158 },
    Medals: [],
  };
  const document = {
    data: {
      type: 'weaponMasterySummary',
      id: player,
      attributes: {
        platform,
        seasonId: '',
        latestMatchId: '',
        weaponSummaries: { Item_Weapon_AK47_C: summary },
      },
    },
    ...(self ? { links: { self } } : {}),
    meta: {},
  };
  return `${JSON.stringify(document, null, 4)}\n`;
}

function recordedSurvival(player: string, self: string | null): string {
  const stat = { total: 0, average: 0, careerBest: 0, lastMatchValue: 1197 };
  const document = {
    data: {
      type: 'survivalMasterySummary',
      id: player,
      attributes: {
        tier: 5,
        level: 500,
        lastMatchId: '',
        totalMatchesPlayed: 27545,
        stats: { timeSurvived: stat, top10: { total: 0 } },
        xp: 8579174,
      },
    },
    ...(self ? { links: { self } } : {}),
    meta: {},
  };
  return JSON.stringify(document, null, 1);
}

const vendorSelf = (shard: string, player: string, kind: string) =>
  `https://api.pubg.com/shards/${shard}/players/${player}/${kind}`;

for (const database of testDatabases) {
  describe(`recorded mastery documents (${database.name})`, () => {
    let t: TestApp;
    let start: number;
    let dir: string;
    let files = 0;
    const deps = () => ({ store: t.store, blobs: t.blobs, config: t.config, clock: t.clock });
    const get = (url: string) => t.app.inject({ url, headers: t.auth });
    /** Ingests `text` from a file, the way `gamedata ingest` does. */
    const ingestText = async (text: string, options: IngestSourceOptions = {}) => {
      const file = path.join(dir, `recording-${files++}.json`);
      fs.writeFileSync(file, text);
      const [result] = await ingestPath(deps(), file, options);
      return result!;
    };
    /** A duo match in which HERO shoots FOE with an AK. */
    const heroMatch = (seed: string, at: number) => {
      const e = telemetryAt(at);
      const hero = { accountId: HERO, teamId: 1 };
      const foe = { accountId: FOE, teamId: 2 };
      return makeMatchInput({
        seed,
        telemetry: [
          e.damage(100, hero, foe, 'WeapAK47_C', 50),
          e.kill(101, foe, {
            killer: [hero, damageInfo('WeapAK47_C', 20)],
            finisher: [hero, damageInfo('WeapAK47_C', 20)],
          }),
        ],
        overrides: { createdAt: iso(at) },
      });
    };
    /** The served bytes a recording should come back as: itself, with our links.self. */
    const asServed = (text: string, recordedSelf: string, url: string) =>
      text.replace(JSON.stringify(recordedSelf), JSON.stringify(`${TEST_BASE_URL}${url}`));

    before(async () => {
      t = await createTestApp(database);
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recorded-mastery-'));
      start = t.clock.now() - 6 * HOUR;
      assert.equal(
        (await ingestMatch(deps(), heroMatch('recorded-mastery-1', start))).status,
        'ingested',
      );
    });
    after(async () => {
      await t.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    test('a recording newer than every derived match is served byte for byte, links.self rewritten', async () => {
      const self = vendorSelf('steam', HERO, 'weapon_mastery');
      const text = recordedWeapons(HERO, self);
      const result = await ingestText(text, { recordedAt: start + HOUR });
      assert.deepEqual(result, {
        source: result.source,
        status: 'ingested',
        kind: 'recorded weaponMasterySummary',
        id: HERO,
      });
      const url = `/shards/steam/players/${HERO}/weapon_mastery`;
      const response = await get(url);
      assert.equal(response.statusCode, 200);
      assert.equal(response.body, asServed(text, self, url));
      assert.equal((await ingestText(text, { recordedAt: start + HOUR })).status, 'duplicate');
    });

    test('a match played after the recording makes the derived document win', async () => {
      const later = heroMatch('recorded-mastery-2', start + 2 * HOUR);
      assert.equal((await ingestMatch(deps(), later)).status, 'ingested');
      const doc = (await get(`/shards/steam/players/${HERO}/weapon_mastery`)).json();
      assert.equal(doc.data.attributes.latestMatchId, later.id);
      assert.equal(doc.data.attributes.weaponSummaries.Item_Weapon_AK47_C.StatsTotal.Kills, 2);
    });

    test('a recording older than the derived data is kept but not served', async () => {
      const self = vendorSelf('steam', HERO, 'survival_mastery');
      const result = await ingestText(recordedSurvival(HERO, self), { recordedAt: start - HOUR });
      assert.equal(result.status, 'ingested');
      const doc = (await get(`/shards/steam/players/${HERO}/survival_mastery`)).json();
      assert.equal(doc.data.attributes.totalMatchesPlayed, 2);
    });

    test('a recording is served for a player known only by it, on its own platform', async () => {
      const weapons = recordedWeapons(ARCHIVED, null, 'psn');
      assert.equal((await ingestText(weapons)).status, 'ingested');
      const self = vendorSelf('psn', ARCHIVED, 'survival_mastery');
      const survival = recordedSurvival(ARCHIVED, self);
      assert.equal((await ingestText(survival)).status, 'ingested');
      const served = await get(`/shards/psn/players/${ARCHIVED}/weapon_mastery`);
      assert.equal(served.body, weapons, 'no links.self: served as given');
      const url = `/shards/console-a/players/${ARCHIVED}/survival_mastery`;
      assert.equal((await get(url)).body, asServed(survival, self, url));
      for (const kind of ['weapon_mastery', 'survival_mastery']) {
        assert.equal((await get(`/shards/steam/players/${ARCHIVED}/${kind}`)).statusCode, 404);
      }
    });

    test('a recording that does not say whose or where it is is refused, naming why', async () => {
      const cases: Array<[string, RegExp]> = [
        [recordedWeapons('player-one', null), /data\/id/],
        [recordedSurvival(HERO, null), /platform/],
        [
          JSON.stringify({ data: { type: 'weaponMasterySummary', id: HERO, attributes: {} } }),
          /weaponSummaries/,
        ],
      ];
      for (const [text, reason] of cases) {
        const result = await ingestText(text);
        assert.equal(result.status, 'error');
        assert.match((result as { message: string }).message, reason);
      }
      const withOption = await ingestText(recordedSurvival(accountId('other'), null), {
        platform: 'kakao',
      });
      assert.equal(withOption.status, 'ingested');
      const url = `/shards/kakao/players/${accountId('other')}/survival_mastery`;
      assert.equal((await get(url)).statusCode, 200);
    });
  });
}
