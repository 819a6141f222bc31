/**
 * What players hurt each other with, in the official dictionaries' words: each weapon's
 * `damageCauserName` (damage and kill events) and `itemId` (the item picked up, fired and
 * attached to — weapon mastery is keyed by it), its class and damage category.
 */

export type WeaponClass =
  'ar' | 'dmr' | 'sr' | 'smg' | 'sg' | 'lmg' | 'pistol' | 'throwable' | 'melee' | 'vehicle';

export interface Weapon {
  /** `damageCauserName` / `killerDamageInfo.damageCauserName`. */
  causer: string;
  /** `Item.itemId` of the weapon; empty for a vehicle. */
  itemId: string;
  weaponClass: WeaponClass;
  damageTypeCategory: string;
}

const gun = (name: string, weaponClass: WeaponClass, itemName = name): Weapon => ({
  causer: `Weap${name}_C`,
  itemId: `Item_Weapon_${itemName}_C`,
  weaponClass,
  damageTypeCategory: 'Damage_Gun',
});

// prettier-ignore
export const WEAPONS: readonly Weapon[] = [
  gun('HK416', 'ar'), gun('BerylM762', 'ar'), gun('AK47', 'ar'), gun('SCAR-L', 'ar'),
  gun('AUG', 'ar'), gun('ACE32', 'ar'), gun('G36C', 'ar'), gun('K2', 'ar'), gun('M16A4', 'ar'),
  gun('Mk47Mutant', 'ar'), gun('QBZ95', 'ar'), gun('Groza', 'ar'),
  gun('Mini14', 'dmr'), gun('SKS', 'dmr'), gun('FNFal', 'dmr'), gun('Mk12', 'dmr'),
  gun('Dragunov', 'dmr'), gun('Mk14', 'dmr'), gun('VSS', 'dmr'),
  gun('Kar98k', 'sr'), gun('M24', 'sr'), gun('MosinNagant', 'sr', 'Mosin'), gun('AWM', 'sr'),
  gun('UMP', 'smg'), gun('Vector', 'smg'), gun('UZI', 'smg'), gun('MP5K', 'smg'), gun('P90', 'smg'),
  gun('Thompson', 'smg'),
  gun('Berreta686', 'sg'), gun('Saiga12', 'sg'), gun('Winchester', 'sg'), gun('DP12', 'sg'),
  gun('DP28', 'lmg'), gun('M249', 'lmg'), gun('MG3', 'lmg'),
  gun('M1911', 'pistol'), gun('M9', 'pistol'), gun('DesertEagle', 'pistol'), gun('G18', 'pistol'),
  gun('Sawnoff', 'pistol'),
  {
    causer: 'ProjGrenade_C', itemId: 'Item_Weapon_Grenade_C', weaponClass: 'throwable',
    damageTypeCategory: 'Damage_Explosion_Grenade',
  },
  {
    causer: 'ProjMolotov_C', itemId: 'Item_Weapon_Molotov_C', weaponClass: 'throwable',
    damageTypeCategory: 'Damage_Molotov',
  },
  { causer: 'WeapPan_C', itemId: 'Item_Weapon_Pan_C', weaponClass: 'melee', damageTypeCategory: 'Damage_Melee' },
  {
    causer: 'WeapMachete_C', itemId: 'Item_Weapon_Machete_C', weaponClass: 'melee',
    damageTypeCategory: 'Damage_Melee',
  },
];

/** Care-package weapons: found in airdrops only. */
export const CRATE_WEAPONS: ReadonlySet<string> = new Set([
  'Item_Weapon_AWM_C',
  'Item_Weapon_Groza_C',
  'Item_Weapon_Mk14_C',
  'Item_Weapon_MG3_C',
]);

/** The weapon of a hit made with a vehicle (a road kill); its causer is the vehicle id. */
export const RAMMING: Weapon = {
  causer: '',
  itemId: '',
  weaponClass: 'vehicle',
  damageTypeCategory: 'Damage_VehicleHit',
};

/** Throwables that hurt nobody but are thrown all the same. */
export const UTILITY_THROWABLES: readonly string[] = [
  'Item_Weapon_SmokeBomb_C',
  'Item_Weapon_FlashBang_C',
];

export const FLARE_GUN = 'Item_Weapon_FlareGun_C';

/**
 * How often each class makes a kill, and its kill distances in metres (typical range, rare max).
 */
export const WEAPON_CLASSES: Readonly<
  Record<WeaponClass, { weight: number; metres: readonly [number, number, number] }>
> = {
  ar: { weight: 50, metres: [8, 160, 380] },
  dmr: { weight: 13, metres: [30, 320, 560] },
  sr: { weight: 7, metres: [40, 420, 720] },
  smg: { weight: 14, metres: [2, 45, 90] },
  sg: { weight: 6, metres: [1, 18, 30] },
  lmg: { weight: 4, metres: [10, 140, 260] },
  pistol: { weight: 3, metres: [1, 22, 45] },
  throwable: { weight: 2.6, metres: [3, 30, 45] },
  melee: { weight: 0.4, metres: [1, 2, 3] },
  vehicle: { weight: 0, metres: [0.5, 3, 6] },
};

/** True for guns and melee weapons: what `weaponsAcquired` counts when picked up. */
export const isCarriedWeapon = (w: Weapon): boolean =>
  w.weaponClass !== 'throwable' && w.weaponClass !== 'vehicle';
