/**
 * Which weapon a telemetry damage causer is. Weapon mastery is keyed by item id
 * (`Item_Weapon_AK47_C`) while telemetry names what dealt the damage (`damageCauserName`:
 * `WeapAK47_C`, `ProjGrenade_C`, `BP_MolotovFireDebuff_C` …). The official dictionaries give both
 * the same display name; for most guns the item id is the causer with `Weap` replaced by
 * `Item_Weapon_`, and the table below holds every causer whose item is spelled otherwise: thrown
 * projectiles and fire fields, skins (counted for their base gun), renamed guns.
 */

/** Causers whose item id does not follow the `Weap<X>_C` → `Item_Weapon_<X>_C` rule. */
const CAUSER_ITEM_IDS: Readonly<Record<string, string | null>> = Object.freeze({
  // Guns whose causer and item are spelled differently, and skins of a base gun.
  WeapCrossbow_1_C: 'Item_Weapon_Crossbow_C',
  WeapMosinNagant_C: 'Item_Weapon_Mosin_C',
  WeapWin94_C: 'Item_Weapon_Win1894_C',
  WeapPanzerFaust100M1_C: 'Item_Weapon_PanzerFaust100M_C',
  WeapDuncansHK416_C: 'Item_Weapon_HK416_C',
  WeapJuliesKar98k_C: 'Item_Weapon_Kar98k_C',
  WeapLunchmeatsAK47_C: 'Item_Weapon_AK47_C',
  WeapMadsQBU88_C: 'Item_Weapon_QBU88_C',
  // Thrown melee weapons count for the weapon thrown.
  WeapPanProjectile_C: 'Item_Weapon_Pan_C',
  WeapCowbarProjectile_C: 'Item_Weapon_Cowbar_C',
  WeapMacheteProjectile_C: 'Item_Weapon_Machete_C',
  WeapSickleProjectile_C: 'Item_Weapon_Sickle_C',
  // Projectiles, explosions and fire fields of throwables and launchers.
  ProjGrenade_C: 'Item_Weapon_Grenade_C',
  ProjStickyGrenade_C: 'Item_Weapon_StickyGrenade_C',
  ProjC4_C: 'Item_Weapon_C4_C',
  ProjMolotov_C: 'Item_Weapon_Molotov_C',
  ProjMolotov_DamageField_Direct_C: 'Item_Weapon_Molotov_C',
  BP_MolotovFireDebuff_C: 'Item_Weapon_Molotov_C',
  BP_FireEffectController_C: 'Item_Weapon_Molotov_C',
  Bluezonebomb_EffectActor_C: 'Item_Weapon_BluezoneGrenade_C',
  PanzerFaust100M_Projectile_C: 'Item_Weapon_PanzerFaust100M_C',
  Mortar_Projectile_C: 'Item_Weapon_Mortar_C',
  BP_Spiketrap_C: 'Item_Weapon_SpikeTrap_C',
  // A vehicle's mounted gun is nobody's weapon.
  WeapTurret_KillTruck_Main_C: null,
});

const WEAPON_CAUSER = /^Weap(.+)_C$/;
/** Some logs suffix an instance number to the causer (`WeapBerylM762_C_12`). */
const INSTANCE_SUFFIX = /(_C)_\d+$/;

/** Answers already worked out, by causer: a match names a few dozen causers thousands of times. */
const known = new Map<string, string | null>();
/** Distinct causers remembered at most (the dictionaries list about 200). */
const KNOWN_LIMIT = 4096;

/**
 * The weapon item id of a damage causer, or null when the causer is no weapon a player carries
 * (zones, vehicles, fists, falls, bots' pawns …). Causers the table does not know follow the
 * `Weap<X>_C` rule, so guns added to the game after the dictionaries still count.
 */
export function weaponItemId(damageCauserName: string): string | null {
  let item = known.get(damageCauserName);
  if (item === undefined) {
    item = mapCauser(damageCauserName);
    if (known.size < KNOWN_LIMIT) known.set(damageCauserName, item);
  }
  return item;
}

function mapCauser(damageCauserName: string): string | null {
  const causer = damageCauserName.replace(INSTANCE_SUFFIX, '$1');
  if (Object.hasOwn(CAUSER_ITEM_IDS, causer)) return CAUSER_ITEM_IDS[causer]!;
  const match = WEAPON_CAUSER.exec(causer);
  return match ? `Item_Weapon_${match[1]}_C` : null;
}
