import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp, TEST_BASE_URL, type TestApp } from '../helpers/app.ts';
import { accountId, makeMatchInput, participantsOf } from '../helpers/matches.ts';
import { damageInfo, telemetryAt, type Who } from '../helpers/telemetry-events.ts';
import { HAVE_FIXTURES, assertSameShape, loadFixture } from '../helpers/fixture-shapes.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { addLateTelemetryMastery } from '../../src/ingest/mastery-late-telemetry.ts';
import type { MatchInput, TelemetryEventInput } from '../../src/ingest/match-input.ts';
import { deleteMatches } from '../../src/store/retention.ts';
import { Value } from '@sinclair/typebox/value';
import { DOCUMENT_SCHEMAS } from '../../src/http/schemas/document-schemas.ts';
import {
  SurvivalMasteryDocument,
  WeaponMasteryDocument,
} from '../../src/http/schemas/mastery-documents.ts';

const HOUR = 3_600_000;
const AK = 'Item_Weapon_AK47_C';
const KAR = 'Item_Weapon_Kar98k_C';
const UMP = 'Item_Weapon_UMP_C';
/** Three duo teams: seats 0–1 (team 1, the winners), 2–3 (team 2), 4–5 (team 3). */
const seat = (index: number, x = 0, y = 0): Who => ({
  accountId: accountId(index),
  teamId: Math.floor(index / 2) + 1,
  x: x * 100,
  y: y * 100,
});
const [P0, P1, P2, P3, P4] = [seat(0), seat(1, 5000), seat(2, 100), seat(3, 200), seat(4, 0, 250)];
const IDLE = accountId('idle');

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

for (const database of testDatabases) {
  describe(`weapon and survival mastery (${database.name})`, () => {
    let t: TestApp;
    const matches: MatchInput[] = [];
    const get = (url: string, headers: Record<string, string> = t.auth) =>
      t.app.inject({ url, headers });
    const getDoc = async (url: string): Promise<Json> => {
      const response = await get(url);
      assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
      return response.json();
    };
    const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const match = (
      seed: string,
      at: number,
      events: (start: number) => TelemetryEventInput[] | null,
      matchType = 'official',
    ) =>
      makeMatchInput({
        seed,
        rosters: 3,
        playersPerRoster: 2,
        ...(events(at) ? { telemetry: events(at)! } : {}),
        overrides: { createdAt: iso(at), matchType: matchType as MatchInput['matchType'] },
      });
    const weaponDoc = (id: string, shard = 'pc-b') =>
      getDoc(`/shards/${shard}/players/${id}/weapon_mastery`);
    const survivalDoc = (id: string, shard = 'pc-b') =>
      getDoc(`/shards/${shard}/players/${id}/survival_mastery`);

    before(async () => {
      t = await createTestApp(database);
      const start = t.clock.now() - 10 * HOUR;
      // A: P0 knocks P2 with an AK and P1 finishes; P0 snipes P3 from 250 m. Official.
      matches.push(
        match('mastery-a', start, (at) => {
          const e = telemetryAt(at);
          return [
            e.landing(60, P0),
            e.landing(61, P1),
            e.landing(62, P2),
            e.landing(63, P3),
            e.landing(64, P4),
            e.damage(100, P0, P2, 'WeapAK47_C', 40, 'HeadShot'),
            e.damage(101, P0, P2, 'WeapAK47_C', 35),
            e.groggy(102, P0, P2, 'WeapAK47_C', 50),
            e.damage(103, P3, P0, 'WeapHK416_C', 30),
            e.kill(105, P2, {
              knocker: [P0, damageInfo('WeapAK47_C', 50)],
              finisher: [P1, damageInfo('WeapUMP_C', 10, 'HeadShot')],
              killer: [P0, damageInfo('WeapAK47_C', 50)],
            }),
            e.damage(110, P0, P3, 'WeapKar98k_C', 90, 'HeadShot'),
            e.kill(110, P3, {
              finisher: [P0, damageInfo('WeapKar98k_C', 250, 'HeadShot')],
              killer: [P0, damageInfo('WeapKar98k_C', 250, 'HeadShot')],
            }),
            e.heal(120, P0, 15),
            e.heal(121, P0, 10),
            e.revive(130, P0, P1),
            e.use(140, 'LogPlayerUseFlareGun', P0, 'Item_Weapon_FlareGun_C'),
            e.pickup(150, P0, 'Item_Weapon_AK47_C'),
            e.pickup(151, P0, 'Item_Heal_Bandage_C'),
            e.pickup(152, P0, 'Item_Heal_Bandage_C'),
            e.lootBox(153, P0, 'Item_Ammo_762mm_C', P3),
          ];
        }),
      );
      // B: ranked; P0 kills P2 with the AK outright.
      matches.push(
        match(
          'mastery-b',
          start + HOUR,
          (at) => {
            const e = telemetryAt(at);
            return [
              e.damage(100, P0, P2, 'WeapAK47_C', 50),
              e.kill(101, P2, {
                finisher: [P0, damageInfo('WeapAK47_C', 30)],
                killer: [P0, damageInfo('WeapAK47_C', 30)],
              }),
            ];
          },
          'competitive',
        ),
      );
      // C: official, stored without telemetry (it comes later in a test below).
      matches.push(match('mastery-c', start + 2 * HOUR, () => null));
      // A custom match names a player who then has no mastery.
      matches.push(
        makeMatchInput({
          seed: 'mastery-custom',
          player: ({ index }) => (index === 0 ? { playerId: IDLE, name: 'Idle' } : {}),
          overrides: { createdAt: iso(start), matchType: 'custom', isCustomMatch: true },
        }),
      );
      for (const input of matches) {
        const result = await ingestMatch(
          { store: t.store, blobs: t.blobs, config: t.config, clock: t.clock },
          input,
        );
        assert.equal(result.status, 'ingested');
      }
    });
    after(() => t.close());

    test('a telemetry kill adds to its weapon; official and ranked apart; per-game maxima', async () => {
      const doc = await weaponDoc(P0.accountId);
      assert.equal(doc.data.type, 'weaponMasterySummary');
      assert.equal(doc.data.id, P0.accountId);
      assert.equal(doc.data.attributes.platform, 'pc-b');
      assert.equal(doc.data.attributes.seasonId, '');
      assert.equal(
        doc.data.attributes.latestMatchId,
        matches[1]!.id,
        'the newest match with weapon stats',
      );
      const weapons = doc.data.attributes.weaponSummaries;
      assert.deepEqual(Object.keys(weapons), [AK, KAR]);
      // AK: 75 HP, a headshot hit, a knock and the kill credit in A; 50 HP and a kill in B.
      assert.deepEqual(weapons[AK], {
        XPTotal: 1750 + 1300,
        LevelCurrent: 2,
        TierCurrent: 1,
        StatsTotal: {
          MostDefeatsInAGame: 1,
          Defeats: 1,
          MostDamagePlayerInAGame: 75,
          DamagePlayer: 125,
          MostHeadShotsInAGame: 1,
          HeadShots: 1,
          LongestDefeat: 30,
          LongRangeDefeats: 0,
          Kills: 2,
          MostKillsInAGame: 1,
          Groggies: 1,
          MostGroggiesInAGame: 1,
        },
        OfficialStatsTotal: {
          MostDefeatsInAGame: 0,
          Defeats: 0,
          DamagePlayer: 75,
          HeadShots: 1,
          Kills: 1,
          MostKillsInAGame: 1,
          Groggies: 1,
          LongestKill: 50,
        },
        CompetitiveStatsTotal: {
          MostDefeatsInAGame: 1,
          Defeats: 1,
          DamagePlayer: 50,
          HeadShots: 0,
          Kills: 1,
          MostKillsInAGame: 1,
          Groggies: 0,
          LongestKill: 30,
        },
        Medals: [
          { MedalId: 'MedalFirstBlood', Count: 1 },
          { MedalId: 'MedalLastManStanding', Count: 1 },
        ],
      });
      assert.equal(weapons[KAR].XPTotal, 1800 + 100 + 200 + 50 + 200);
      assert.equal(weapons[KAR].StatsTotal.LongestDefeat, 250);
      assert.equal(weapons[KAR].StatsTotal.LongRangeDefeats, 1);
      assert.deepEqual(weapons[KAR].Medals, [
        { MedalId: 'MedalDeadeye', Count: 1 },
        { MedalId: 'MedalLastManStanding', Count: 1 },
        { MedalId: 'MedalLongshot', Count: 1 },
      ]);
      // The finisher's defeat; an unhurt headshot is an Assassin's.
      const finisher = (await weaponDoc(P1.accountId)).data.attributes.weaponSummaries;
      assert.deepEqual(Object.keys(finisher), [UMP]);
      assert.equal(finisher[UMP].StatsTotal.Defeats, 1);
      assert.equal(finisher[UMP].StatsTotal.Kills, 0);
      assert.deepEqual(
        finisher[UMP].Medals.map((m: Json) => m.MedalId),
        ['MedalAssassin', 'MedalDeadeye', 'MedalFirstBlood'],
      );
    });

    test('survival: matches played, distances from participant stats, telemetry values', async () => {
      const doc = await survivalDoc(P0.accountId);
      const a = doc.data.attributes;
      const mine = matches.slice(0, 3).map((m) => participantsOf(m)[0]!.stats);
      const sum = (pick: (s: (typeof mine)[number]) => number) =>
        mine.reduce((n, s) => n + pick(s), 0);
      assert.equal(doc.data.type, 'survivalMasterySummary');
      assert.equal(doc.data.id, P0.accountId);
      assert.equal(a.totalMatchesPlayed, 3);
      assert.equal(a.lastMatchId, matches[2]!.id);
      assert.equal(a.latestMatchId, matches[2]!.id);
      assert.equal(
        a.stats.distanceOnFoot.total,
        sum((s) => s.walkDistance),
      );
      assert.equal(
        a.stats.distanceByVehicle.total,
        sum((s) => s.rideDistance),
      );
      assert.equal(
        a.stats.distanceBySwimming.total,
        sum((s) => s.swimDistance),
      );
      assert.equal(
        a.stats.distanceTotal.total,
        sum((s) => s.walkDistance + s.rideDistance + s.swimDistance),
      );
      assert.equal(a.stats.timeSurvived.average, sum((s) => s.timeSurvived) / 3);
      assert.deepEqual(a.stats.position, { average: 1, careerBest: 1, lastMatchValue: 1 });
      assert.deepEqual(a.stats.top10, { total: 3 });
      // Telemetry values average over the two matches that had telemetry; C had none.
      assert.deepEqual(a.stats.healed, {
        total: 25,
        average: 12.5,
        careerBest: 25,
        lastMatchValue: 0,
      });
      assert.deepEqual(a.stats.hotDropLandings, { total: 1 });
      assert.equal(a.stats.uniqueItemsLooted.total, 3);
      assert.equal(a.stats.enemyCratesLooted.total, 1);
      assert.equal(a.stats.airDropsCalled.total, 1);
      assert.equal(a.stats.damageTaken.total, 30);
      // 3 × (60 for 600 s + 50 for 1,000 m + 100 for the win) + 56 from A's telemetry.
      assert.equal(a.xp, 3 * 210 + 56);
      assert.equal(a.level, 1);
      assert.equal(a.tier, 1);
      const revived = (await survivalDoc(P1.accountId)).data.attributes.stats.revived;
      assert.equal(revived.total, 1);
    });

    test('telemetry attached later adds its part exactly once', async () => {
      const late = telemetryAt(Date.parse(matches[2]!.createdAt));
      const events = [late.heal(100, P0, 40), late.damage(200, P0, P4, 'WeapM9_C', 20)];
      const deps = { store: t.store, blobs: t.blobs, config: t.config, clock: t.clock };
      // The match again, now with its telemetry file: ingest attaches the file.
      const attach = () =>
        ingestMatch(deps, matches[2]!, { telemetry: Buffer.from(JSON.stringify(events)) });
      assert.equal((await attach()).status, 'attached');
      assert.equal((await attach()).status, 'unchanged');
      const healed = (await survivalDoc(P0.accountId)).data.attributes.stats.healed;
      assert.deepEqual(healed, { total: 65, average: 65 / 3, careerBest: 40, lastMatchValue: 40 });
      const weapons = (await weaponDoc(P0.accountId)).data.attributes;
      assert.equal(weapons.weaponSummaries['Item_Weapon_M9_C'].OfficialStatsTotal.DamagePlayer, 20);
      assert.equal(weapons.latestMatchId, matches[2]!.id);
      // Nothing is pending any more, nor for matches that came with telemetry.
      for (const input of [matches[2]!, matches[0]!]) {
        const added = await t.store.db
          .transaction()
          .execute((trx) => addLateTelemetryMastery(trx, t.store, input.id, events));
        assert.deepEqual(added, [], "no player's mastery changed");
      }
    });

    test('a known player without mastery gets empty documents; an unknown one a 404', async () => {
      const weapons = await weaponDoc(IDLE);
      assert.deepEqual(weapons.data.attributes, {
        platform: 'pc-b',
        seasonId: '',
        latestMatchId: '',
        weaponSummaries: {},
      });
      const survival = (await survivalDoc(IDLE)).data.attributes;
      assert.equal(survival.xp, 0);
      assert.equal(survival.level, 1);
      assert.equal(survival.tier, 1);
      assert.equal(survival.totalMatchesPlayed, 0);
      assert.equal(survival.lastMatchId, '');
      assert.deepEqual(survival.stats.timeSurvived, {
        total: 0,
        average: 0,
        careerBest: 0,
        lastMatchValue: 0,
      });
      for (const kind of ['weapon_mastery', 'survival_mastery']) {
        const response = await get(`/shards/pc-b/players/${accountId('nobody')}/${kind}`);
        assert.equal(response.statusCode, 404);
        assert.equal(response.json().errors[0].title, 'Not Found');
      }
    });

    test('keyed and rate-limited like the other player endpoints; platform shards only', async () => {
      for (const kind of ['weapon_mastery', 'survival_mastery']) {
        const url = `/shards/pc-b/players/${P0.accountId}/${kind}`;
        assert.equal((await get(url, {})).statusCode, 401);
        assert.equal((await get(url, { authorization: 'Bearer wrong' })).statusCode, 401);
        const ok = await get(url);
        assert.equal(ok.headers['x-ratelimit-limit'], '10000');
        assert.ok(Number(ok.headers['x-ratelimit-remaining']) < 10000);
        const region = await get(`/shards/pc-eu/players/${P0.accountId}/${kind}`);
        assert.equal(region.statusCode, 400);
        assert.match(region.json().errors[0].detail, /platform shard/);
        assert.equal(
          (await get(`/shards/nowhere/players/${P0.accountId}/${kind}`)).statusCode,
          404,
        );
      }
    });

    test('the vendor spelling of the platform, and self links on the public base URL', async () => {
      const weapons = await weaponDoc(P0.accountId, 'steam');
      assert.equal(weapons.data.attributes.platform, 'steam');
      assert.equal(
        weapons.links.self,
        `${TEST_BASE_URL}/shards/steam/players/${P0.accountId}/weapon_mastery`,
      );
      assert.deepEqual(weapons.meta, {});
      const survival = await survivalDoc(P0.accountId, 'steam');
      assert.equal(
        survival.links.self,
        `${TEST_BASE_URL}/shards/steam/players/${P0.accountId}/survival_mastery`,
      );
    });

    test('the OpenAPI document describes both routes', async () => {
      const paths = (await get('/openapi.json')).json().paths;
      for (const [kind, operationId] of [
        ['weapon_mastery', 'getWeaponMastery'],
        ['survival_mastery', 'getSurvivalMastery'],
      ]) {
        const route = paths[`/shards/{shard}/players/{accountId}/${kind}`].get;
        assert.equal(route.operationId, operationId);
        assert.deepEqual(route.tags, ['mastery']);
        assert.deepEqual(route.parameters.map((p: Json) => p.name).sort(), ['accountId', 'shard']);
      }
    });

    test('the documents match their documented schemas', async () => {
      for (const id of [P0.accountId, P1.accountId, IDLE]) {
        for (const [url, schema] of [
          [`/shards/steam/players/${id}/weapon_mastery`, WeaponMasteryDocument],
          [`/shards/pc-b/players/${id}/survival_mastery`, SurvivalMasteryDocument],
        ] as const) {
          const errors = [...Value.Errors(schema, [...DOCUMENT_SCHEMAS], await getDoc(url))];
          assert.deepEqual(
            errors.map((e) => `${e.path}: ${e.message}`),
            [],
            url,
          );
        }
      }
    });

    test('a purged match takes its pending telemetry mark with it', async () => {
      const input = match('mastery-purged', t.clock.now() - 9 * HOUR, () => null);
      const deps = { store: t.store, blobs: t.blobs, config: t.config, clock: t.clock };
      assert.equal((await ingestMatch(deps, input)).status, 'ingested');
      const pending = () =>
        t.store.db
          .selectFrom('mastery_pending_telemetry')
          .select('match_id')
          .where('match_id', '=', input.id)
          .execute();
      assert.equal((await pending()).length, 1);
      await deleteMatches(t.store.db, [input.id]);
      assert.equal((await pending()).length, 0);
    });

    test(
      'documents have the shape of the recorded responses',
      { skip: !HAVE_FIXTURES },
      async () => {
        const weapons = await weaponDoc(P0.accountId, 'steam');
        const recorded = loadFixture(
          'mastery/pubgkt--mastery-src-commonTest-resources-weapon_mastery_response.json',
        ) as Json;
        const recordedWeapons = recorded.data.attributes.weaponSummaries;
        // Weapon keys differ by player: compare the envelope, then every summary with a recorded one.
        assertSameShape(
          {
            ...weapons,
            data: {
              ...weapons.data,
              attributes: { ...weapons.data.attributes, weaponSummaries: {} },
            },
          },
          {
            ...recorded,
            data: {
              ...recorded.data,
              attributes: { ...recorded.data.attributes, weaponSummaries: {} },
            },
          },
        );
        const medalled = (
          loadFixture('mastery/pubg-python--tests-weapon_mastery_response.json') as Json
        ).data.attributes.weaponSummaries[AK];
        for (const summary of Object.values(weapons.data.attributes.weaponSummaries)) {
          assertSameShape({ ...(summary as Json), Medals: [] }, recordedWeapons[AK]);
          assertSameShape((summary as Json).Medals, medalled.Medals);
        }
        const survivalFixture = loadFixture(
          'mastery/pubgkt--SurvivalMasteryFixtures.kt.SURVIVAL_MASTERY_RESPONSE_JSON.extracted.json',
        );
        for (const id of [P0.accountId, IDLE]) {
          assertSameShape(await survivalDoc(id, 'steam'), survivalFixture, {
            extra: ['data.attributes.latestMatchId'],
          });
        }
      },
    );
  });
}
