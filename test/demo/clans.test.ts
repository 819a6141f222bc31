import assert from 'node:assert/strict';
import { test } from 'node:test';
import { planDemoClans } from '../../src/demo/clans.ts';
import { generateDemo } from '../../src/demo/generate-demo.ts';
import { populateDemo } from '../../src/demo/populate-demo.ts';
import { withDemoDeps } from '../helpers/demo-deps.ts';
import { testDatabases } from '../helpers/stores.ts';

const NOW = Date.parse('2026-11-20T12:00:00Z');

test('the clan plan depends on the seed only: clans of 3–40 members, a few bans', () => {
  const { players } = generateDemo({ seed: 3, now: NOW, scale: 1 });
  const plan = planDemoClans(3, players);
  assert.deepEqual(planDemoClans(3, players), plan);
  const clans = plan.filter((input) => input.kind === 'clan');
  const bans = plan.filter((input) => input.kind === 'playerStatus');
  assert.ok(clans.length >= 50, `${clans.length} clans`);
  const members = clans.flatMap((clan) => clan.members ?? []);
  assert.equal(new Set(members).size, members.length, 'nobody is in two clans');
  for (const clan of clans) {
    assert.ok(clan.members!.length >= 3 && clan.members!.length <= 40, clan.name);
  }
  assert.ok(members.length < players.length / 2, 'most players are clanless');
  assert.ok(bans.length >= 8 && bans.length < players.length / 50, `${bans.length} bans`);
  assert.ok(bans.some((ban) => ban.banType === 'PermanentBan'));
  assert.ok(bans.some((ban) => ban.banType === 'TemporaryBan'));
});

for (const database of testDatabases) {
  test(`${database.name}: the demo has clans with members and banned players`, async () => {
    const store = await database.open();
    await withDemoDeps(store, NOW, async (deps) => {
      await populateDemo(deps, { seed: 5, scale: 0.02, now: NOW, progress: false });
      const clans = await store.db.selectFrom('clans').selectAll().execute();
      assert.ok(clans.length >= 1, `${clans.length} clans`);
      const members = await store.db
        .selectFrom('players')
        .select('clan_id')
        .where('clan_id', '!=', '')
        .execute();
      assert.ok(members.length >= 3 * clans.length);
      const banned = await store.db
        .selectFrom('players')
        .select('ban_type')
        .where('ban_type', '!=', 'Innocent')
        .execute();
      assert.ok(banned.length >= 2, `${banned.length} banned`);
    });
  });
}
