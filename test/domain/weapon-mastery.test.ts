import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { weaponItemId } from '../../src/domain/weapon-items.ts';
import {
  emptyWeaponGame,
  mergeWeaponTotals,
  weaponGameTotals,
  weaponLevel,
  weaponLevelXp,
  weaponMatchKind,
  weaponTier,
  weaponXp,
} from '../../src/domain/weapon-mastery.ts';

describe('weapon item ids of damage causers', () => {
  test('guns follow Weap<X>_C → Item_Weapon_<X>_C, also ones newer than the dictionaries', () => {
    assert.equal(weaponItemId('WeapAK47_C'), 'Item_Weapon_AK47_C');
    assert.equal(weaponItemId('WeapSCAR-L_C'), 'Item_Weapon_SCAR-L_C');
    assert.equal(weaponItemId('Weapvz61Skorpion_C'), 'Item_Weapon_vz61Skorpion_C');
    assert.equal(weaponItemId('WeapBerylM762_C_12'), 'Item_Weapon_BerylM762_C');
  });
  test('renamed guns, skins, projectiles and fire fields map to their weapon', () => {
    assert.equal(weaponItemId('WeapMosinNagant_C'), 'Item_Weapon_Mosin_C');
    assert.equal(weaponItemId('WeapWin94_C'), 'Item_Weapon_Win1894_C');
    assert.equal(weaponItemId('WeapDuncansHK416_C'), 'Item_Weapon_HK416_C');
    assert.equal(weaponItemId('ProjGrenade_C'), 'Item_Weapon_Grenade_C');
    assert.equal(weaponItemId('BP_MolotovFireDebuff_C'), 'Item_Weapon_Molotov_C');
    assert.equal(weaponItemId('WeapPanProjectile_C'), 'Item_Weapon_Pan_C');
    assert.equal(weaponItemId('PanzerFaust100M_Projectile_C'), 'Item_Weapon_PanzerFaust100M_C');
  });
  test('zones, vehicles, fists and mounted guns are no weapon', () => {
    for (const causer of [
      'BattleRoyaleModeController_Def_C',
      'Dacia_A_01_v2_C',
      'PlayerMale_A_C',
      'WeapTurret_KillTruck_Main_C',
      '',
      'None',
    ])
      assert.equal(weaponItemId(causer), null, causer);
  });
});

describe('weapon XP, level and tier', () => {
  test('XP: 20 per HP, 100 per knock and per kill, 200 per defeat, 50 per headshot, 200 per long-range defeat', () => {
    const game = {
      ...emptyWeaponGame(),
      damagePlayer: 75.5,
      groggies: 1,
      kills: 2,
      defeats: 1,
      headShots: 3,
      longRangeDefeats: 1,
    };
    assert.equal(weaponXp(game), 1510 + 100 + 200 + 200 + 150 + 200);
  });
  test('levels cost 2,000 XP plus 150 per level gained, up to 100', () => {
    assert.equal(weaponLevelXp(1), 0);
    assert.equal(weaponLevelXp(2), 2000);
    assert.equal(weaponLevelXp(3), 4150);
    assert.equal(weaponLevelXp(100), 925_650);
    assert.equal(weaponLevel(0), 1);
    assert.equal(weaponLevel(1999), 1);
    assert.equal(weaponLevel(2000), 2);
    assert.equal(weaponLevel(925_649), 99);
    assert.equal(weaponLevel(925_650), 100);
    assert.equal(weaponLevel(5_000_000), 100);
  });
  test('a tier every 20 levels; tier 6 only at level 100', () => {
    assert.deepEqual(
      [1, 19, 20, 39, 40, 60, 80, 99, 100].map(weaponTier),
      [1, 1, 2, 2, 3, 4, 5, 5, 6],
    );
  });
});

describe('weapon totals', () => {
  test('add sums and keep per-game maxima and the longest distances', () => {
    const a = weaponGameTotals({
      ...emptyWeaponGame(),
      kills: 3,
      damagePlayer: 120,
      longestKill: 80,
    });
    const b = weaponGameTotals({
      ...emptyWeaponGame(),
      kills: 1,
      damagePlayer: 300,
      longestKill: 40,
      defeats: 2,
    });
    const total = mergeWeaponTotals(a, b);
    assert.equal(total.kills, 4);
    assert.equal(total.damagePlayer, 420);
    assert.equal(total.mostKills, 3);
    assert.equal(total.mostDamagePlayer, 300);
    assert.equal(total.mostDefeats, 2);
    assert.equal(total.longestKill, 80);
    assert.equal(total.xp, a.xp + b.xp);
  });
  test('matches count by kind: official, competitive, other; custom and training not at all', () => {
    const kind = (matchType: string, isCustomMatch = false) =>
      weaponMatchKind({ matchType, isCustomMatch });
    assert.equal(kind('official'), 'official');
    assert.equal(kind('competitive'), 'competitive');
    assert.equal(kind('arcade'), 'other');
    assert.equal(kind('event'), 'other');
    assert.equal(kind('custom'), null);
    assert.equal(kind('training'), null);
    assert.equal(kind('official', true), null);
  });
});
