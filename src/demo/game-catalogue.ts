/**
 * The small slice of the game's vocabulary the demo data uses: maps with their extents and
 * match lengths, weapons with the damage causer and item ids of the official dictionaries,
 * gear, vehicles and weather. Short hand-picked lists, not the dictionaries themselves.
 */

export interface DemoMap {
  name: string;
  /** Width and height of the playable square, in centimetres (telemetry units). */
  extentCm: number;
  /** Range of battle-royale match durations, seconds. */
  durationSeconds: readonly [number, number];
  /** Range of battle-royale lobby sizes (participants, bots included). */
  lobby: readonly [number, number];
  /** Blue-zone phases (LogPhaseChange fires for each). */
  phases: number;
  /** `damageCauserName` of blue-zone damage on this map. */
  blueZoneCauser: string;
  /** Named areas (`Character.zone`), a subset of the official region ids; empty when unknown. */
  zones: readonly string[];
  weathers: readonly string[];
  vehicles: readonly string[];
  /** Relative frequency in public battle-royale matchmaking. */
  weight: number;
}

// prettier-ignore
const ERANGEL_ZONES = [
  'pochinki', 'rozhok', 'school', 'georgopol', 'yasnayapolyana', 'mylta', 'primorsk', 'lipovka',
    'severny', 'zharki', 'gatka', 'quarry', 'sosnovkamilitarybase', 'novorepnoye', 'hospital',
];

// prettier-ignore
export const DEMO_MAPS: readonly DemoMap[] = [
  {
    name: 'Baltic_Main', extentCm: 816_000, durationSeconds: [1650, 1900], lobby: [93, 100],
    phases: 9, blueZoneCauser: 'BattleRoyaleModeController_Def_C',
    zones: ERANGEL_ZONES,
    weathers: ['Clear', 'Clear_02', 'Overcast', 'Sunset'],
    vehicles: [
      'Dacia_A_01_v2_C', 'Uaz_A_01_C', 'Uaz_B_01_C', 'BP_Motorbike_04_C',
      'BP_Motorbike_04_SideCar_C', 'BP_M_Rony_A_01_C', 'BP_Mirado_A_02_C',
    ],
    weight: 26,
  },
  {
    name: 'Desert_Main', extentCm: 816_000, durationSeconds: [1650, 1900], lobby: [92, 100],
    phases: 9, blueZoneCauser: 'BattleRoyaleModeController_Desert_C',
    zones: [
      'losleones', 'pecado', 'sanmartin', 'elpozo', 'montenuevo', 'chumacera', 'elazahar',
      'campomilitar', 'prison', 'ladrillera', 'junkyard',
    ],
    weathers: ['Clear', 'Sunrise', 'Weather_Clear'],
    vehicles: [
      'BP_PickupTruck_A_01_C', 'BP_Mirado_A_02_C', 'Buggy_A_01_C', 'BP_Motorbike_04_Desert_C',
      'Uaz_C_01_C', 'BP_Van_A_01_C', 'BP_Dirtbike_C',
    ],
    weight: 14,
  },
  {
    name: 'Tiger_Main', extentCm: 816_000, durationSeconds: [1650, 1880], lobby: [92, 100],
    phases: 9, blueZoneCauser: 'BattleRoyaleModeController_Tiger_C',
    zones: [
      'airport', 'armybase', 'buksansa', 'godok', 'hosan', 'hosanprison', 'kangneung', 'palace',
      'shipyard', 'songam', 'terminal', 'wolsong',
    ],
    weathers: ['Clear', 'Overcast', 'Sunset'],
    vehicles: [
      'BP_PonyCoupe_C', 'BP_Porter_C', 'BP_Blanc_C', 'BP_Motorbike_04_C', 'Dacia_A_02_v2_C',
      'BP_ATV_C',
    ],
    weight: 12,
  },
  {
    name: 'Neon_Main', extentCm: 816_000, durationSeconds: [1600, 1850], lobby: [92, 100],
    phases: 9, blueZoneCauser: 'BattleRoyaleModeController_Def_C',
    zones: [],
    weathers: ['Clear', 'Overcast'],
    vehicles: ['BP_Blanc_C', 'BP_CoupeRB_C', 'BP_Dirtbike_C', 'BP_Niva_03_C', 'BP_Motorbike_04_C'],
    weight: 12,
  },
  {
    name: 'DihorOtok_Main', extentCm: 816_000, durationSeconds: [1550, 1820], lobby: [90, 100],
    phases: 8, blueZoneCauser: 'BattleRoyaleModeController_DihorOtok_C',
    zones: [
      'castle', 'cosmodrome', 'dinopark', 'goroka', 'peshkova', 'podvosto', 'volnova', 'vihar',
      'winery', 'sawmill', 'cementfactory',
    ],
    weathers: ['Snow', 'Clear', 'Overcast'],
    vehicles: [
      'BP_Snowmobile_01_C', 'BP_Niva_01_C', 'Uaz_B_01_C', 'Dacia_A_01_v2_snow_C',
      'BP_Snowbike_01_C',
    ],
    weight: 9,
  },
  {
    // Sanhok: a quarter of the area, faster circles, smaller lobbies.
    name: 'Savage_Main', extentCm: 408_000, durationSeconds: [1300, 1520], lobby: [64, 88],
    phases: 7, blueZoneCauser: 'BattleRoyaleModeController_Savage_C',
    zones: [
      'bootcamp', 'paradiseresort', 'ruins', 'kampong', 'painan', 'bantai', 'tatmok', 'khao',
      'campalpha', 'quarry', 'lawaki',
    ],
    weathers: ['Clear', 'Sunrise', 'Overcast'],
    vehicles: [
      'BP_TukTukTuk_A_01_C', 'Buggy_A_02_C', 'BP_Scooter_01_A_C', 'BP_M_Rony_A_02_C',
      'AquaRail_A_01_C',
    ],
    weight: 10,
  },
  {
    // Karakin: 2×2 km, 64 players at most.
    name: 'Summerland_Main', extentCm: 204_000, durationSeconds: [1300, 1400], lobby: [48, 64],
    phases: 6, blueZoneCauser: 'BattleRoyaleModeController_Summerland_C',
    zones: ['alhabar', 'alhayik', 'bahrsahir', 'bashara', 'cargoship', 'hadiqanemo'],
    weathers: ['Weather_Summerland_01', 'Clear'],
    vehicles: ['BP_Dirtbike_C', 'Buggy_A_03_C', 'BP_PickupTruck_B_01_C'],
    weight: 8,
  },
];

export function demoMap(name: string): DemoMap {
  const map = DEMO_MAPS.find((m) => m.name === name);
  if (!map) throw new RangeError(`unknown demo map ${name}`);
  return map;
}

/** Maps of esports play: the large ones. */
export // prettier-ignore
const ESPORTS_MAPS = [
  'Baltic_Main', 'Desert_Main', 'Tiger_Main', 'Neon_Main',
];

export type WeaponClass =
  'ar' | 'dmr' | 'sr' | 'smg' | 'sg' | 'lmg' | 'pistol' | 'throwable' | 'melee';

export interface Weapon {
  /** `damageCauserName` / `killerDamageInfo.damageCauserName`. */
  causer: string;
  /** `Item.itemId` of the weapon. */
  itemId: string;
  weaponClass: WeaponClass;
  damageTypeCategory: string;
}

const gun = (causer: string, itemId: string, weaponClass: WeaponClass): Weapon => ({
  causer,
  itemId,
  weaponClass,
  damageTypeCategory: 'Damage_Gun',
});

export const WEAPONS: readonly Weapon[] = [
  gun('WeapHK416_C', 'Item_Weapon_HK416_C', 'ar'),
  gun('WeapBerylM762_C', 'Item_Weapon_BerylM762_C', 'ar'),
  gun('WeapAK47_C', 'Item_Weapon_AK47_C', 'ar'),
  gun('WeapSCAR-L_C', 'Item_Weapon_SCAR-L_C', 'ar'),
  gun('WeapAUG_C', 'Item_Weapon_AUG_C', 'ar'),
  gun('WeapACE32_C', 'Item_Weapon_ACE32_C', 'ar'),
  gun('WeapG36C_C', 'Item_Weapon_G36C_C', 'ar'),
  gun('WeapK2_C', 'Item_Weapon_K2_C', 'ar'),
  gun('WeapM16A4_C', 'Item_Weapon_M16A4_C', 'ar'),
  gun('WeapMk47Mutant_C', 'Item_Weapon_Mk47Mutant_C', 'ar'),
  gun('WeapMini14_C', 'Item_Weapon_Mini14_C', 'dmr'),
  gun('WeapSKS_C', 'Item_Weapon_SKS_C', 'dmr'),
  gun('WeapFNFal_C', 'Item_Weapon_FNFal_C', 'dmr'),
  gun('WeapMk12_C', 'Item_Weapon_Mk12_C', 'dmr'),
  gun('WeapDragunov_C', 'Item_Weapon_Dragunov_C', 'dmr'),
  gun('WeapKar98k_C', 'Item_Weapon_Kar98k_C', 'sr'),
  gun('WeapM24_C', 'Item_Weapon_M24_C', 'sr'),
  gun('WeapMosinNagant_C', 'Item_Weapon_Mosin_C', 'sr'),
  gun('WeapAWM_C', 'Item_Weapon_AWM_C', 'sr'),
  gun('WeapUMP_C', 'Item_Weapon_UMP_C', 'smg'),
  gun('WeapVector_C', 'Item_Weapon_Vector_C', 'smg'),
  gun('WeapUZI_C', 'Item_Weapon_UZI_C', 'smg'),
  gun('WeapMP5K_C', 'Item_Weapon_MP5K_C', 'smg'),
  gun('WeapP90_C', 'Item_Weapon_P90_C', 'smg'),
  gun('WeapBerreta686_C', 'Item_Weapon_Berreta686_C', 'sg'),
  gun('WeapSaiga12_C', 'Item_Weapon_Saiga12_C', 'sg'),
  gun('WeapWinchester_C', 'Item_Weapon_Winchester_C', 'sg'),
  gun('WeapDP28_C', 'Item_Weapon_DP28_C', 'lmg'),
  gun('WeapM249_C', 'Item_Weapon_M249_C', 'lmg'),
  gun('WeapM1911_C', 'Item_Weapon_M1911_C', 'pistol'),
  gun('WeapM9_C', 'Item_Weapon_M9_C', 'pistol'),
  gun('WeapDesertEagle_C', 'Item_Weapon_DesertEagle_C', 'pistol'),
  {
    causer: 'ProjGrenade_C',
    itemId: 'Item_Weapon_Grenade_C',
    weaponClass: 'throwable',
    damageTypeCategory: 'Damage_Explosion_Grenade',
  },
  {
    causer: 'ProjMolotov_C',
    itemId: 'Item_Weapon_Molotov_C',
    weaponClass: 'throwable',
    damageTypeCategory: 'Damage_Molotov',
  },
  {
    causer: 'WeapPan_C',
    itemId: 'Item_Weapon_Pan_C',
    weaponClass: 'melee',
    damageTypeCategory: 'Damage_Melee',
  },
];

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
};

export interface GearItem {
  itemId: string;
  category: string;
  subCategory: string;
}

/** Helmets, vests and backpacks; picked up and equipped after landing. */
export const GEAR: readonly GearItem[] = [
  { itemId: 'Item_Head_E_01_Lv1_C', category: 'Equipment', subCategory: 'Headgear' },
  { itemId: 'Item_Head_F_01_Lv2_C', category: 'Equipment', subCategory: 'Headgear' },
  { itemId: 'Item_Head_G_01_Lv3_C', category: 'Equipment', subCategory: 'Headgear' },
  { itemId: 'Item_Armor_E_01_Lv1_C', category: 'Equipment', subCategory: 'Vest' },
  { itemId: 'Item_Armor_D_01_Lv2_C', category: 'Equipment', subCategory: 'Vest' },
  { itemId: 'Item_Armor_C_01_Lv3_C', category: 'Equipment', subCategory: 'Vest' },
  { itemId: 'Item_Back_E_01_Lv1_C', category: 'Equipment', subCategory: 'Backpack' },
  { itemId: 'Item_Back_F_01_Lv2_C', category: 'Equipment', subCategory: 'Backpack' },
  { itemId: 'Item_Back_C_01_Lv3_C', category: 'Equipment', subCategory: 'Backpack' },
];

/** Ammunition, healing and attachments: the everyday pickups. */
export const SUPPLIES: readonly GearItem[] = [
  { itemId: 'Item_Ammo_556mm_C', category: 'Ammunition', subCategory: 'None' },
  { itemId: 'Item_Ammo_762mm_C', category: 'Ammunition', subCategory: 'None' },
  { itemId: 'Item_Ammo_9mm_C', category: 'Ammunition', subCategory: 'None' },
  { itemId: 'Item_Ammo_12Guage_C', category: 'Ammunition', subCategory: 'None' },
  { itemId: 'Item_Heal_Bandage_C', category: 'Use', subCategory: 'Heal' },
  { itemId: 'Item_Heal_FirstAid_C', category: 'Use', subCategory: 'Heal' },
  { itemId: 'Item_Boost_EnergyDrink_C', category: 'Use', subCategory: 'Boost' },
  { itemId: 'Item_Boost_PainKiller_C', category: 'Use', subCategory: 'Boost' },
  {
    itemId: 'Item_Attach_Weapon_Upper_DotSight_01_C',
    category: 'Attachment',
    subCategory: 'Sight',
  },
  { itemId: 'Item_Attach_Weapon_Upper_Holosight_C', category: 'Attachment', subCategory: 'Sight' },
  { itemId: 'Item_Attach_Weapon_Upper_ACOG_01_C', category: 'Attachment', subCategory: 'Sight' },
  {
    itemId: 'Item_Attach_Weapon_Muzzle_Compensator_Large_C',
    category: 'Attachment',
    subCategory: 'None',
  },
  {
    itemId: 'Item_Attach_Weapon_Magazine_ExtendedQuickDraw_Large_C',
    category: 'Attachment',
    subCategory: 'None',
  },
  { itemId: 'Item_Attach_Weapon_Lower_Foregrip_C', category: 'Attachment', subCategory: 'None' },
];

/** Vehicle ids that float rather than drive. */
export const FLOATING_VEHICLES: ReadonlySet<string> = new Set(['AquaRail_A_01_C', 'Boat_PG117_C']);
