/**
 * Items as telemetry names them (official `itemId`s with their category and sub-category):
 * gear, healing, boosts, ammunition, attachments and care-package contents. Item objects are
 * built once and shared by every event that carries them — they are never mutated.
 */
import { FLARE_GUN, type Weapon } from './weapons.ts';

/** The `Item` object of telemetry events. */
export interface Item {
  itemId: string;
  stackCount: number;
  category: string;
  subCategory: string;
  attachedItems: readonly string[];
}

const NONE: readonly string[] = Object.freeze([]);
const cache = new Map<string, Item>();

/** The shared item object for an id, category, sub-category and stack (no attachments). */
export function item(itemId: string, category: string, subCategory: string, stack = 1): Item {
  const key = `${itemId}|${stack}`;
  let found = cache.get(key);
  if (!found) {
    found = Object.freeze({
      itemId,
      stackCount: stack,
      category,
      subCategory,
      attachedItems: NONE,
    });
    cache.set(key, found);
  }
  return found;
}

const SUBCATEGORY: Readonly<Record<string, string>> = { pistol: 'Handgun', melee: 'Melee' };
const bareWeapons = new Map<Weapon, Item>();

/** A weapon as an item; throwables are equipment, as the game files them. */
export function weaponItem(w: Weapon, attachments: readonly string[] = NONE): Item {
  if (attachments.length === 0) {
    let bare = bareWeapons.get(w);
    if (!bare) {
      bare =
        w.weaponClass === 'throwable'
          ? item(w.itemId, 'Equipment', 'Throwable')
          : item(w.itemId, 'Weapon', SUBCATEGORY[w.weaponClass] ?? 'Main');
      bareWeapons.set(w, bare);
    }
    return bare;
  }
  const sub = SUBCATEGORY[w.weaponClass] ?? 'Main';
  return {
    itemId: w.itemId,
    stackCount: 1,
    category: 'Weapon',
    subCategory: sub,
    attachedItems: attachments,
  };
}

/** An empty hand: the item of a punch, a ramming or a red-zone bomb. */
export const NO_ITEM = item('', '', '', 0);
/** The flare gun is filed as a main weapon (a known quirk of the game's data). */
export const FLARE_GUN_ITEM = item(FLARE_GUN, 'Weapon', 'Main');
export const PARACHUTE_ITEM = item('Item_Back_B_01_StartParachutePack_C', 'Equipment', 'Backpack');

/** Healing items (each use counts in `heals`) with the health they restore at most. */
export const HEALS: ReadonlyArray<{ item: Item; restores: number }> = [
  { item: item('Item_Heal_Bandage_C', 'Use', 'Heal'), restores: 10 },
  { item: item('Item_Heal_FirstAid_C', 'Use', 'Heal'), restores: 75 },
  { item: item('Item_Heal_MedKit_C', 'Use', 'Heal'), restores: 100 },
];
/** Boosts (each use counts in `boosts`) with the boost they give over time. */
export const BOOSTS: ReadonlyArray<{ item: Item; restores: number }> = [
  { item: item('Item_Boost_EnergyDrink_C', 'Use', 'Boost'), restores: 40 },
  { item: item('Item_Boost_PainKiller_C', 'Use', 'Boost'), restores: 60 },
  { item: item('Item_Boost_AdrenalineSyringe_C', 'Use', 'Boost'), restores: 100 },
];

export const AMMO: readonly Item[] = [
  item('Item_Ammo_556mm_C', 'Ammunition', 'None', 30),
  item('Item_Ammo_762mm_C', 'Ammunition', 'None', 30),
  item('Item_Ammo_9mm_C', 'Ammunition', 'None', 30),
  item('Item_Ammo_12Guage_C', 'Ammunition', 'None', 10),
  item('Item_Ammo_45ACP_C', 'Ammunition', 'None', 30),
  item('Item_Ammo_300Magnum_C', 'Ammunition', 'None', 5),
];

// prettier-ignore
export const ATTACHMENTS: readonly Item[] = [
  'Upper_DotSight_01', 'Upper_Holosight', 'Upper_ACOG_01', 'Upper_Aimpoint', 'Upper_Scope3x',
  'Upper_Scope6x', 'Muzzle_Compensator_Large', 'Muzzle_FlashHider_Large', 'Muzzle_Suppressor_Large',
  'Magazine_ExtendedQuickDraw_Large', 'Magazine_Extended_Large', 'Lower_Foregrip',
  'Lower_AngledForeGrip', 'Lower_HalfGrip', 'Stock_AR_Composite',
].map((name) => item(`Item_Attach_Weapon_${name}_C`, 'Attachment', 'None'));

/** Helmets, vests and backpacks, level 1 to 3: what a vest or helmet breaks into (LogArmorDestroy). */
export const GEAR: Readonly<Record<'Headgear' | 'Vest' | 'Backpack', readonly Item[]>> = {
  Headgear: ['Item_Head_E_01_Lv1_C', 'Item_Head_F_01_Lv2_C', 'Item_Head_G_01_Lv3_C'].map((id) =>
    item(id, 'Equipment', 'Headgear'),
  ),
  Vest: ['Item_Armor_E_01_Lv1_C', 'Item_Armor_D_01_Lv2_C', 'Item_Armor_C_01_Lv3_C'].map((id) =>
    item(id, 'Equipment', 'Vest'),
  ),
  Backpack: ['Item_Back_E_01_Lv1_C', 'Item_Back_F_01_Lv2_C', 'Item_Back_C_01_Lv3_C'].map((id) =>
    item(id, 'Equipment', 'Backpack'),
  ),
};

/** Everything else a care package may hold besides its weapon. */
export const CRATE_EXTRAS: readonly Item[] = [
  GEAR.Headgear[2]!,
  GEAR.Vest[2]!,
  GEAR.Backpack[2]!,
  item('Item_Ghillie_01_C', 'Equipment', 'Jacket'),
  HEALS[2]!.item,
  BOOSTS[2]!.item,
  item('Item_Attach_Weapon_Upper_Scope6x_C', 'Attachment', 'None'),
  item('Item_Attach_Weapon_Muzzle_Suppressor_SniperRifle_C', 'Attachment', 'None'),
];

export const FUEL = item('Item_JerryCan_C', 'Use', 'Fuel');
