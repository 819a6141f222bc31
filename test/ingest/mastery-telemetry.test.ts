import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { tallyMatchTelemetry } from '../../src/ingest/mastery-telemetry.ts';
import { emptyWeaponGame } from '../../src/domain/weapon-mastery.ts';
import { matchMedals } from '../../src/domain/weapon-medals.ts';
import { damageInfo, telemetryAt, type Who } from '../helpers/telemetry-events.ts';

const START = Date.parse('2026-11-20T12:00:00Z');
const A: Who = { accountId: 'account.a', teamId: 1 };
const B: Who = { accountId: 'account.b', teamId: 1 };
const C: Who = { accountId: 'account.c', teamId: 2 };
const D: Who = { accountId: 'account.d', teamId: 2 };
const t = telemetryAt(START);

/** A small fight: A knocks C and B finishes; A snipes D, who had shot A. */
const EVENTS = [
  t.position(5, A),
  t.damage(10, A, C, 'WeapAK47_C', 40, 'HeadShot'),
  t.damage(11, A, C, 'WeapAK47_C', 35),
  t.groggy(12, A, C, 'WeapAK47_C', 50),
  t.damage(13, D, A, 'WeapHK416_C', 30),
  t.kill(15, C, {
    knocker: [A, damageInfo('WeapAK47_C', 50)],
    finisher: [B, damageInfo('WeapUMP_C', 10, 'HeadShot')],
    killer: [A, damageInfo('WeapAK47_C', 50)],
  }),
  t.damage(20, A, D, 'WeapKar98k_C', 90, 'HeadShot'),
  t.kill(20, D, {
    finisher: [A, damageInfo('WeapKar98k_C', 250, 'HeadShot')],
    killer: [A, damageInfo('WeapKar98k_C', 250, 'HeadShot')],
  }),
  t.damage(21, A, B, 'WeapAK47_C', 10),
  t.damage(22, null, B, 'BattleRoyaleModeController_Def_C', 5),
  t.heal(23, A, 15),
  t.heal(24, A, 10),
  t.revive(25, A, B),
  t.use(26, 'LogPlayerUseThrowable', B, 'Item_Weapon_Grenade_C'),
  t.use(27, 'LogPlayerUseFlareGun', A, 'Item_Weapon_FlareGun_C'),
  t.pickup(28, A, 'Item_Weapon_AK47_C'),
  t.pickup(29, A, 'Item_Heal_Bandage_C'),
  t.pickup(30, A, 'Item_Heal_Bandage_C'),
  t.lootBox(31, A, 'Item_Ammo_762mm_C', D),
  t.lootBox(32, A, 'Item_Ammo_762mm_C', B),
];

describe('the mastery pass over telemetry', () => {
  const tally = tallyMatchTelemetry(
    EVENTS,
    [A, B, C, D].map((w) => w.accountId),
  );
  const player = (who: Who) => tally.players.get(who.accountId)!;

  test('credits kills to the killer, defeats to the finisher, knocks and damage to the attacker', () => {
    assert.deepEqual(Object.fromEntries(player(A).weapons), {
      Item_Weapon_AK47_C: {
        ...emptyWeaponGame(),
        kills: 1,
        groggies: 1,
        headShots: 1,
        damagePlayer: 75,
        longestKill: 50,
      },
      Item_Weapon_Kar98k_C: {
        kills: 1,
        defeats: 1,
        groggies: 0,
        headShots: 1,
        damagePlayer: 90,
        longRangeDefeats: 1,
        longestDefeat: 250,
        longestKill: 250,
      },
    });
    assert.deepEqual(Object.fromEntries(player(B).weapons), {
      Item_Weapon_UMP_C: { ...emptyWeaponGame(), defeats: 1, longestDefeat: 10 },
    });
    // D's shot at A counts for D; damage to a teammate (A → B) counts for nobody.
    assert.equal(player(D).weapons.get('Item_Weapon_HK416_C')?.damagePlayer, 30);
    assert.equal(player(C).weapons.size, 0);
  });

  test('tallies the survival values only telemetry has', () => {
    const a = player(A);
    assert.equal(a.healed, 25);
    assert.equal(a.damageTaken, 30);
    assert.equal(a.airDropsCalled, 1);
    assert.deepEqual([...a.items].sort(), [
      'Item_Ammo_762mm_C',
      'Item_Heal_Bandage_C',
      'Item_Weapon_AK47_C',
    ]);
    assert.deepEqual([...a.crates], [D.accountId], "a teammate's crate is no enemy crate");
    const b = player(B);
    assert.equal(b.damageTaken, 15, 'from a teammate and the zone too');
    assert.equal(b.revived, 1);
    assert.equal(b.throwablesThrown, 1);
    assert.equal(player(C).damageTaken, 75);
  });

  test('lists the defeats with what the medals need', () => {
    assert.deepEqual(
      tally.defeats.map((d) => [
        d.accountId,
        d.weaponId,
        d.victimId,
        d.headShot,
        d.metres,
        d.unhurt,
      ]),
      [
        [B.accountId, 'Item_Weapon_UMP_C', C.accountId, true, 10, true],
        [A.accountId, 'Item_Weapon_Kar98k_C', D.accountId, true, 250, false],
      ],
    );
  });

  test('awards the medals the fight shows', () => {
    const games = new Map([...tally.players].map(([id, p]) => [id, p.weapons]));
    const medals = matchMedals({
      defeats: tally.defeats,
      games,
      winners: new Set([A.accountId, B.accountId]),
      teamSizes: new Map([
        [1, 2],
        [2, 2],
      ]),
    });
    assert.deepEqual(
      medals.map((m) => `${m.accountId} ${m.weaponId} ${m.medalId} ${m.count}`),
      [
        'account.a Item_Weapon_Kar98k_C MedalDeadeye 1',
        'account.a Item_Weapon_Kar98k_C MedalLastManStanding 1',
        'account.a Item_Weapon_Kar98k_C MedalLongshot 1',
        'account.b Item_Weapon_UMP_C MedalAssassin 1',
        'account.b Item_Weapon_UMP_C MedalDeadeye 1',
        'account.b Item_Weapon_UMP_C MedalFirstBlood 1',
      ],
    );
  });

  test('an unfinished knock is the knocker’s defeat; team kills and suicides credit nothing', () => {
    const events = [
      t.kill(40, C, {
        knocker: [A, damageInfo('WeapM416_C', 120)],
        killer: [A, damageInfo('WeapM416_C', 120)],
      }),
      t.kill(41, B, {
        killer: [A, damageInfo('WeapAK47_C', 5)],
        finisher: [A, damageInfo('WeapAK47_C', 5)],
        teamKill: true,
      }),
      { ...t.kill(42, D, { killer: [D, damageInfo('ProjGrenade_C', 0)] }), isSuicide: true },
    ];
    const { players, defeats } = tallyMatchTelemetry(events, [A.accountId, D.accountId]);
    assert.deepEqual(Object.fromEntries(players.get(A.accountId)!.weapons), {
      Item_Weapon_M416_C: {
        ...emptyWeaponGame(),
        kills: 1,
        defeats: 1,
        longRangeDefeats: 1,
        longestDefeat: 120,
        longestKill: 120,
      },
    });
    assert.equal(players.get(D.accountId)!.weapons.size, 0);
    assert.equal(defeats.length, 1);
  });

  test('LogPlayerKill (v1) counts only in telemetry without LogPlayerKillV2', () => {
    const v2 = t.kill(50, C, {
      killer: [A, damageInfo('WeapAK47_C', 30)],
      finisher: [A, damageInfo('WeapAK47_C', 30)],
    });
    const v1 = {
      _T: 'LogPlayerKill',
      _D: v2._D,
      attackId: 3,
      killer: (v2 as Record<string, unknown>).killer,
      victim: (v2 as Record<string, unknown>).victim,
      assistant: null,
      dBNOId: -1,
      damageReason: 'HeadShot',
      damageTypeCategory: 'Damage_Gun',
      damageCauserName: 'WeapAK47_C',
      distance: 3000,
    };
    const game = (events: unknown[]) =>
      tallyMatchTelemetry(events, [A.accountId])
        .players.get(A.accountId)!
        .weapons.get('Item_Weapon_AK47_C');
    assert.deepEqual(
      [game([v2, v1])?.kills, game([v2, v1])?.defeats],
      [1, 1],
      'both tell one death',
    );
    assert.deepEqual([game([v1])?.kills, game([v1])?.defeats, game([v1])?.longestKill], [1, 1, 30]);
  });

  test('ignores events of an unexpected shape instead of failing', () => {
    const odd = [
      { _T: 'LogPlayerTakeDamage', _D: 'x', attacker: 'nobody', victim: null, damage: '12' },
      { _T: 'LogPlayerKillV2', _D: 'x' },
      { _T: 'LogHeal', _D: 'x', character: { accountId: A.accountId }, healAmount: 'lots' },
      null,
    ];
    const { players, defeats } = tallyMatchTelemetry(odd, [A.accountId]);
    assert.equal(players.get(A.accountId)!.healed, 0);
    assert.equal(defeats.length, 0);
  });
});
