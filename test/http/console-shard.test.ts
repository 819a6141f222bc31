/**
 * The real service's combined `console` shard (both console platforms; REFERENCE §1.2): matches
 * of either console platform, samples over both platforms' regions and mastery of a player of
 * either are served on it; every other endpoint refuses it with a 400 that names the platform
 * shards to ask instead. Recorded console matches (shardId "console") are stored under their
 * participants' platform.
 */
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp, TEST_BASE_URL, type TestApp } from '../helpers/app.ts';
import { accountId, makeMatchInput } from '../helpers/matches.ts';
import { listenOnFreePort } from '../helpers/raw-http.ts';
import { httpGet } from '../helpers/http-get.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';
import { ingestRecordedMatch } from '../../src/ingest/recorded-match.ts';
import { buildSamples } from '../../src/jobs/build-samples.ts';
import type { Platform } from '../../src/domain/shards.ts';

const at = (text: string): number => Date.parse(text);

interface Resource {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
}

async function ingestOn(
  t: TestApp,
  seed: string,
  platform: Platform,
  region: string,
  createdAt: number,
  players: number,
): Promise<string> {
  const match = makeMatchInput({
    seed,
    rosters: 2,
    playersPerRoster: 1,
    // With a telemetry asset, as every recorded match document has.
    telemetry: true,
    player: ({ index }) => ({ playerId: accountId(players + index), name: `${seed}-${index}` }),
    overrides: {
      platformShard: platform,
      regionShard: region,
      createdAt: new Date(createdAt).toISOString(),
    },
  });
  await ingestMatch(t, match);
  return match.id;
}

for (const database of testDatabases) {
  test(`[${database.name}] the combined console shard`, async (s) => {
    const t = await createTestApp(database, { SAMPLE_SIZE: '10' });
    const get = (url: string) => t.app.inject({ url, headers: t.auth });
    const ok = async (url: string): Promise<{ data: Resource; included?: Resource[] }> => {
      const response = await get(url);
      assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
      return response.json();
    };
    const refused = async (url: string, status: number): Promise<string> => {
      const response = await get(url);
      assert.equal(response.statusCode, status, `${url}: ${response.body}`);
      return response.json().errors[0].detail;
    };
    try {
      const psn = await ingestOn(
        t,
        'psn',
        'console-a',
        'console-a-eu',
        at('2026-11-19T02:00:00Z'),
        100,
      );
      const xbox = await ingestOn(
        t,
        'xbox',
        'console-b',
        'console-b-na',
        at('2026-11-19T03:00:00Z'),
        200,
      );
      const steam = await ingestOn(t, 'steam', 'pc-b', 'pc-eu', at('2026-11-19T04:00:00Z'), 300);

      await s.test('a match of either console platform, and no other, is on console', async () => {
        for (const id of [psn, xbox]) {
          const body = await ok(`/shards/console/matches/${id}`);
          assert.equal(body.data.attributes.shardId, 'console', 'the match names the shard asked');
          const participants = body.included!.filter((r) => r.type === 'participant');
          const own = id === psn ? 'psn' : 'xbox';
          for (const p of participants) assert.equal(p.attributes.shardId, own, 'its own platform');
          const self = (body as unknown as { links: { self: string } }).links.self;
          assert.equal(self, `${TEST_BASE_URL}/shards/console/matches/${id}`);
        }
        assert.match(await refused(`/shards/console/matches/${steam}`, 404), /on shard 'console'/);
        // The platform shards are as strict as before: a console-b match is not on psn.
        assert.equal((await get(`/shards/psn/matches/${xbox}`)).statusCode, 404);
        const onOwn = await ok(`/shards/xbox/matches/${xbox}`);
        assert.equal(onOwn.data.attributes.shardId, 'xbox');
      });

      await s.test(
        'over a connection too, where cached matches are sent before Fastify',
        async () => {
          const port = await listenOnFreePort(t.app);
          const expected = (await get(`/shards/console/matches/${xbox}`)).body;
          for (let i = 0; i < 3; i++) {
            const answer = await httpGet(port, `/shards/console/matches/${xbox}`);
            assert.equal(answer.status, 200);
            assert.equal(answer.body.toString(), expected, `request ${i}: the same document`);
            const steamAnswer = await httpGet(port, `/shards/console/matches/${steam}`);
            assert.equal(steamAnswer.status, 404, `request ${i}: still no PC match on console`);
          }
        },
      );

      await s.test('samples on console list both console platforms, and nothing else', async () => {
        await buildSamples(t);
        const response = await get('/shards/console/samples');
        assert.equal(response.statusCode, 200, response.body);
        const body = response.json();
        assert.equal(body.data.attributes.shardId, 'console');
        const entries = body.data.relationships.matches.data as Array<{
          id: string;
          meta: { shardId: string };
        }>;
        assert.deepEqual(
          entries.map((entry) => [entry.id, entry.meta.shardId]).sort(),
          [
            [psn, 'psn'],
            [xbox, 'xbox'],
          ].sort(),
        );
        const psnOnly = (await get('/shards/psn/samples')).json();
        const listed = psnOnly.data.relationships.matches.data.map((e: { id: string }) => e.id);
        assert.deepEqual(listed, [psn], 'a platform shard still lists its own regions only');
      });

      await s.test("mastery on console is the player's, whichever console platform", async () => {
        for (const player of [accountId(100), accountId(200)]) {
          const body = await ok(`/shards/console/players/${player}/survival_mastery`);
          assert.equal(body.data.type, 'survivalMasterySummary');
          assert.equal(body.data.id, player);
          assert.equal(
            (await get(`/shards/console/players/${player}/weapon_mastery`)).statusCode,
            200,
          );
        }
        assert.match(
          await refused(`/shards/console/players/${accountId(300)}/weapon_mastery`, 404),
          /No player/,
          'a PC player is no console player',
        );
      });

      await s.test('every other endpoint refuses console, naming the shards to ask', async () => {
        const player = accountId(100);
        for (const url of [
          '/shards/console/players?filter[playerNames]=psn-0',
          `/shards/console/players/${player}`,
          '/shards/console/seasons',
          `/shards/console/players/${player}/seasons/lifetime`,
          '/shards/console/leaderboards/squad-fpp?page[number]=0',
          '/shards/console/clans/clan.0123456789abcdef0123456789abcdef',
        ]) {
          const detail = await refused(url, 400);
          assert.match(detail, /'console'/, url);
          assert.match(detail, /'psn' or 'xbox'/, url);
        }
        // Still a 404 for a shard that does not exist.
        assert.match(await refused('/shards/consoles/seasons', 404), /Unknown shard 'consoles'/);
      });

      await s.test('a recorded console match is stored under its players platform', async () => {
        const body = (await ok(`/shards/console/matches/${xbox}`)) as unknown as {
          data: Resource & { relationships: unknown; links: unknown };
          included: Resource[];
        };
        // The same document as the real service records it, as another match.
        const copy = randomUUID();
        const recorded = JSON.parse(JSON.stringify(body).replaceAll(xbox, copy));
        const result = await ingestRecordedMatch(t, recorded, { region: 'console-b-na' });
        assert.equal(result.status, 'ingested');
        assert.equal(result.platform, 'console-b');
        assert.equal((await get(`/shards/xbox/matches/${copy}`)).statusCode, 200);
        assert.equal((await get(`/shards/psn/matches/${copy}`)).statusCode, 404);

        const nobody = JSON.parse(JSON.stringify(recorded).replaceAll('"xbox"', '"steam"'));
        nobody.data.id = randomUUID();
        await assert.rejects(
          ingestRecordedMatch(t, nobody, { region: 'console-b-na' }),
          (error: Error) => {
            assert.match(error.message, /no participant names one of them/);
            return true;
          },
        );
      });
    } finally {
      await t.close();
    }
  });
}
