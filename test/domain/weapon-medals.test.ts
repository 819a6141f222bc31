import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyWeaponGame, type WeaponGame } from '../../src/domain/weapon-mastery.ts';
import { matchMedals, type Defeat } from '../../src/domain/weapon-medals.ts';

const AK = 'Item_Weapon_AK47_C';
const M9 = 'Item_Weapon_M9_C';

let victims = 0;
function defeat(seconds: number, weaponId = AK, more: Partial<Defeat> = {}): Defeat {
  return {
    at: seconds * 1000,
    accountId: 'account.hero',
    weaponId,
    headShot: false,
    metres: 20,
    victimId: `account.v${victims++}`,
    victimTeamId: 100 + victims,
    unhurt: false,
    ...more,
  };
}

function medalsOf(
  defeats: Defeat[],
  games: Record<string, Partial<WeaponGame>> = {},
  teamSizes = new Map<number, number>(),
) {
  const weapons = new Map(
    Object.entries(games).map(([id, g]) => [id, { ...emptyWeaponGame(), ...g }]),
  );
  const first = defeat(0, M9, { accountId: 'account.someone-else' });
  const last = defeat(10_000, M9, { accountId: 'account.someone-else' });
  const medals = matchMedals({
    defeats: [first, ...defeats, last],
    games: new Map([['account.hero', weapons]]),
    winners: new Set(),
    teamSizes,
  });
  return Object.fromEntries(medals.map((m) => [`${m.weaponId} ${m.medalId}`, m.count]));
}

describe('weapon medals', () => {
  test('runs of defeats with one weapon, each within 10 s: one medal per run, by its length', () => {
    const medals = medalsOf([
      defeat(100),
      defeat(110), // a double (10 s apart)
      defeat(200),
      defeat(205),
      defeat(209), // a triple
      defeat(300),
      defeat(301),
      defeat(302),
      defeat(303),
      defeat(304), // five: a quad
      defeat(400),
      defeat(411), // 11 s apart: no run
      defeat(500),
      defeat(503, M9),
      defeat(506), // the pistol does not break the AK's run
    ]);
    assert.deepEqual(medals, {
      [`${AK} MedalDoubleKill`]: 2,
      [`${AK} MedalTripleKill`]: 1,
      [`${AK} MedalQuadKill`]: 1,
    });
  });

  test('headshots, unhurt headshots and shots from 200 m', () => {
    const medals = medalsOf([
      defeat(100, AK, { headShot: true }),
      defeat(200, AK, { headShot: true, unhurt: true }),
      defeat(300, M9, { metres: 200 }),
      defeat(400, M9, { metres: 199.9, unhurt: true }),
    ]);
    assert.deepEqual(medals, {
      [`${AK} MedalDeadeye`]: 2,
      [`${AK} MedalAssassin`]: 1,
      [`${M9} MedalLongshot`]: 1,
    });
  });

  test('5 and 10 defeats, 300 damage with one weapon in a match', () => {
    const medals = medalsOf([], {
      [AK]: { defeats: 10, damagePlayer: 299.9 },
      [M9]: { defeats: 5, damagePlayer: 300 },
    });
    assert.deepEqual(medals, {
      [`${AK} MedalFrenzy`]: 1,
      [`${AK} MedalRampage`]: 1,
      [`${M9} MedalFrenzy`]: 1,
      [`${M9} MedalPunisher`]: 1,
    });
  });

  test('a whole enemy team of two or more, to the weapon of its last member', () => {
    const squad = (s: number, weaponId: string, victimId: string) =>
      defeat(s, weaponId, { victimTeamId: 7, victimId });
    const lone = defeat(900, AK, { victimTeamId: 8 });
    const medals = medalsOf(
      [
        squad(100, AK, 'account.s1'),
        squad(150, AK, 'account.s2'),
        squad(190, M9, 'account.s3'),
        lone,
      ],
      {},
      new Map([
        [7, 3],
        [8, 1],
      ]),
    );
    assert.deepEqual(medals, { [`${M9} MedalAnnihilation`]: 1 });
  });

  test('first blood and last man standing go to the first and last defeat of the match', () => {
    const medals = matchMedals({
      defeats: [
        defeat(5, M9, { accountId: 'account.a' }),
        defeat(1, AK, { accountId: 'account.b' }),
        defeat(9, AK, { accountId: 'account.a' }),
      ],
      games: new Map([
        ['account.a', new Map()],
        ['account.b', new Map()],
      ]),
      winners: new Set(['account.a']),
      teamSizes: new Map(),
    });
    assert.deepEqual(
      medals.map((m) => `${m.accountId} ${m.weaponId} ${m.medalId}`),
      [`account.a ${AK} MedalLastManStanding`, `account.b ${AK} MedalFirstBlood`],
    );
  });
});
