import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp } from '../helpers/app.ts';
import { makeMatchInput } from '../helpers/matches.ts';
import { ingestMatch } from '../../src/ingest/ingest-match.ts';

const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

for (const database of testDatabases) {
  test(`[${database.name}] tournaments list, detail and their matches on the tournament shard`, async () => {
    const t = await createTestApp(database);
    try {
      const now = t.clock.now();
      const tournamentMatch = (seed: number, tournamentId: string, hoursAgo: number) =>
        makeMatchInput({
          seed,
          rosters: 4,
          playersPerRoster: 4,
          overrides: {
            platformShard: 'tournament',
            regionShard: 'pc-tournament',
            gameMode: 'squad-fpp',
            tournamentId,
            createdAt: iso(now - hoursAgo * 3_600_000),
          },
        });
      for (const match of [
        tournamentMatch(1, 'eu-pgs26', 30),
        tournamentMatch(2, 'eu-pgs26', 29),
        tournamentMatch(3, 'na-pcs7', 5),
      ]) {
        await ingestMatch(t, match);
      }
      await ingestMatch(
        t,
        makeMatchInput({ seed: 4, overrides: { createdAt: iso(now - 3_600_000) } }),
      );

      const unauthorized = await t.app.inject({ url: '/tournaments' });
      assert.equal(unauthorized.statusCode, 401);

      const list = await t.app.inject({ url: '/tournaments', headers: t.auth });
      assert.equal(list.statusCode, 200);
      const listBody = list.json();
      assert.deepEqual(
        listBody.data.map((d: { id: string }) => d.id),
        ['na-pcs7', 'eu-pgs26'],
      );
      assert.equal(listBody.data[1].type, 'tournament');
      assert.equal(listBody.data[1].attributes.createdAt, iso(now - 30 * 3_600_000));
      assert.equal(listBody.links.self, `${t.config.publicBaseUrl}/tournaments`);
      assert.ok(list.headers['x-ratelimit-limit'], 'tournaments are rate limited');

      const detail = await t.app.inject({ url: '/tournaments/eu-pgs26', headers: t.auth });
      assert.equal(detail.statusCode, 200);
      const body = detail.json();
      const ids = body.data.relationships.matches.data.map((m: { id: string }) => m.id);
      assert.deepEqual(ids, [
        tournamentMatch(1, 'eu-pgs26', 30).id,
        tournamentMatch(2, 'eu-pgs26', 29).id,
      ]);
      assert.deepEqual(
        body.included.map((m: { type: string; id: string }) => [m.type, m.id]),
        ids.map((id: string) => ['match', id]),
      );
      for (const id of ids) {
        const match = await t.app.inject({ url: `/shards/tournament/matches/${id}` });
        assert.equal(
          match.statusCode,
          200,
          `tournament match ${id} resolves on the tournament shard`,
        );
      }
      assert.equal(
        (await t.app.inject({ url: '/tournaments/xx-none', headers: t.auth })).statusCode,
        404,
      );
    } finally {
      await t.close();
    }
  });
}
