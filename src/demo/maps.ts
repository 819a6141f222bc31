/**
 * The maps of today's rotation (every `mapName` of the official dictionary except the training
 * range and the retired original Erangel) with what the generator needs of each: the size of its
 * coordinate square, match lengths, lobby sizes, the blue-zone timings of its phases, its
 * hazard (red-zone bombing, or Karakin's black zone), named areas, weather and vehicles.
 */
import { ZONE_1X1, ZONE_2X2, ZONE_3X3, ZONE_4X4, ZONE_8X8, type ZoneTimings } from './zones.ts';

export interface DemoMap {
  name: string;
  /** Width and height of the playable square, in centimetres (telemetry units). */
  extentCm: number;
  /** Range of battle-royale match durations, seconds. */
  durationSeconds: readonly [number, number];
  /** Range of battle-royale lobby sizes (participants, bots included). */
  lobby: readonly [number, number];
  zone: ZoneTimings;
  /** Bombardments that come and go: red zones, or the black zone that levels Karakin. */
  hazard: 'red' | 'black';
  /** `damageCauserName` of blue-zone damage on this map. */
  blueZoneCauser: string;
  /** `vehicleId` of what carries the players over the map before they jump. */
  aircraft: string;
  /** Named areas (`Character.zone`), official region ids; empty where the dictionary has none. */
  zones: readonly string[];
  weathers: readonly string[];
  vehicles: readonly string[];
  /** Relative frequency in public battle-royale matchmaking; 0: never matchmade. */
  weight: number;
  /** Team sizes matchmaking offers on the map (Haven is played in squads only). */
  teamSizes: readonly number[];
  /** In the ranked map pool. */
  ranked: boolean;
}

// prettier-ignore
const ERANGEL_ZONES = [
  'pochinki', 'rozhok', 'school', 'georgopol', 'yasnayapolyana', 'mylta', 'primorsk', 'lipovka',
  'severny', 'zharki', 'gatka', 'quarry', 'sosnovkamilitarybase', 'novorepnoye', 'hospital',
];
const ANY_TEAM = [1, 2, 4] as const;
const PLANE = 'DummyTransportAircraft_C';
const BIG = { extentCm: 816_000, zone: ZONE_8X8, hazard: 'red', aircraft: PLANE } as const;

// prettier-ignore
export const DEMO_MAPS: readonly DemoMap[] = [
  {
    ...BIG, name: 'Baltic_Main', durationSeconds: [1650, 1900], lobby: [93, 100],
    blueZoneCauser: 'BattleRoyaleModeController_Def_C', zones: ERANGEL_ZONES,
    weathers: ['Clear', 'Clear_02', 'Overcast', 'Sunset'],
    vehicles: [
      'Dacia_A_01_v2_C', 'Uaz_A_01_C', 'Uaz_B_01_C', 'BP_Motorbike_04_C', 'BP_Motorbike_04_SideCar_C',
      'BP_M_Rony_A_01_C', 'BP_Mirado_A_02_C', 'Boat_PG117_C', 'BP_BRDM_C',
    ],
    weight: 24, teamSizes: ANY_TEAM, ranked: true,
  },
  {
    ...BIG, name: 'Desert_Main', durationSeconds: [1650, 1900], lobby: [92, 100],
    blueZoneCauser: 'BattleRoyaleModeController_Desert_C',
    zones: [
      'losleones', 'pecado', 'sanmartin', 'elpozo', 'montenuevo', 'chumacera', 'elazahar',
      'campomilitar', 'prison', 'ladrillera', 'junkyard',
    ],
    weathers: ['Clear', 'Sunrise', 'Weather_Clear'],
    vehicles: [
      'BP_PickupTruck_A_01_C', 'BP_Mirado_A_02_C', 'Buggy_A_01_C', 'BP_Motorbike_04_Desert_C',
      'Uaz_C_01_C', 'BP_Van_A_01_C', 'BP_Dirtbike_C', 'AquaRail_A_01_C',
    ],
    weight: 12, teamSizes: ANY_TEAM, ranked: true,
  },
  {
    ...BIG, name: 'Tiger_Main', durationSeconds: [1650, 1880], lobby: [92, 100],
    blueZoneCauser: 'BattleRoyaleModeController_Tiger_C',
    zones: [
      'airport', 'armybase', 'buksansa', 'godok', 'hosan', 'hosanprison', 'kangneung', 'palace',
      'shipyard', 'songam', 'terminal', 'wolsong',
    ],
    weathers: ['Clear', 'Overcast', 'Sunset'],
    vehicles: [
      'BP_PonyCoupe_C', 'BP_Porter_C', 'BP_Blanc_C', 'BP_Motorbike_04_C', 'Dacia_A_02_v2_C', 'BP_ATV_C',
    ],
    weight: 11, teamSizes: ANY_TEAM, ranked: true,
  },
  {
    ...BIG, name: 'Kiki_Main', durationSeconds: [1650, 1900], lobby: [92, 100],
    blueZoneCauser: 'BattleRoyaleModeController_Kiki_C', zones: [],
    weathers: ['Clear', 'Overcast', 'Sunrise'],
    vehicles: ['BP_Blanc_C', 'BP_Pillar_Car_C', 'AirBoat_V2_C', 'BP_Dirtbike_C', 'BP_Mirado_A_03_C'],
    weight: 11, teamSizes: ANY_TEAM, ranked: true,
  },
  {
    ...BIG, name: 'Neon_Main', durationSeconds: [1600, 1850], lobby: [92, 100],
    blueZoneCauser: 'BattleRoyaleModeController_Def_C', zones: [],
    weathers: ['Clear', 'Overcast'],
    vehicles: ['BP_Blanc_C', 'BP_CoupeRB_C', 'BP_Dirtbike_C', 'BP_Niva_03_C', 'BP_Motorbike_04_C'],
    weight: 11, teamSizes: ANY_TEAM, ranked: true,
  },
  {
    ...BIG, name: 'DihorOtok_Main', durationSeconds: [1600, 1850], lobby: [90, 100],
    blueZoneCauser: 'BattleRoyaleModeController_DihorOtok_C',
    zones: [
      'castle', 'cosmodrome', 'dinopark', 'goroka', 'peshkova', 'podvosto', 'volnova', 'vihar',
      'winery', 'sawmill', 'cementfactory',
    ],
    weathers: ['Snow', 'Clear', 'Overcast'],
    vehicles: [
      'BP_Snowmobile_01_C', 'BP_Niva_01_C', 'Uaz_B_01_C', 'Dacia_A_01_v2_snow_C', 'BP_Snowbike_01_C',
    ],
    weight: 9, teamSizes: ANY_TEAM, ranked: true,
  },
  {
    // Sanhok: a quarter of the area, faster circles, smaller lobbies.
    name: 'Savage_Main', extentCm: 408_000, durationSeconds: [1300, 1520], lobby: [64, 88],
    zone: ZONE_4X4, hazard: 'red', aircraft: PLANE,
    blueZoneCauser: 'BattleRoyaleModeController_Savage_C',
    zones: [
      'bootcamp', 'paradiseresort', 'ruins', 'kampong', 'painan', 'bantai', 'tatmok', 'khao',
      'campalpha', 'quarry', 'lawaki',
    ],
    weathers: ['Clear', 'Sunrise', 'Overcast'],
    vehicles: [
      'BP_TukTukTuk_A_01_C', 'Buggy_A_02_C', 'BP_Scooter_01_A_C', 'BP_M_Rony_A_02_C', 'AquaRail_A_01_C',
    ],
    weight: 9, teamSizes: ANY_TEAM, ranked: false,
  },
  {
    // Paramo: 3×3 km, 64 players, flown in by helicopter.
    name: 'Chimera_Main', extentCm: 306_000, durationSeconds: [1250, 1450], lobby: [56, 64],
    zone: ZONE_3X3, hazard: 'red', aircraft: 'TransportAircraft_Chimera_C',
    blueZoneCauser: 'BattleRoyaleModeController_Chimera_C',
    zones: ['Lab', 'Level_A', 'Level_B', 'Level_C', 'Level_D', 'Ruins'],
    weathers: ['Clear', 'Overcast'],
    vehicles: ['BP_Dirtbike_C', 'Buggy_A_04_C', 'BP_Motorbike_Solitario_C'],
    weight: 4, teamSizes: ANY_TEAM, ranked: false,
  },
  {
    // Karakin: 2×2 km, 64 players, the black zone instead of red zones.
    name: 'Summerland_Main', extentCm: 204_000, durationSeconds: [1200, 1350], lobby: [48, 64],
    zone: ZONE_2X2, hazard: 'black', aircraft: PLANE,
    blueZoneCauser: 'BattleRoyaleModeController_Summerland_C',
    zones: ['alhabar', 'alhayik', 'bahrsahir', 'bashara', 'cargoship', 'hadiqanemo'],
    weathers: ['Weather_Summerland_01', 'Clear'],
    vehicles: ['BP_Dirtbike_C', 'Buggy_A_03_C', 'BP_PickupTruck_B_01_C'],
    weight: 6, teamSizes: ANY_TEAM, ranked: false,
  },
  {
    // Haven: 1×1 km of industrial city, 32 players in squads, patrolled by Pillar cars.
    name: 'Heaven_Main', extentCm: 102_000, durationSeconds: [1000, 1200], lobby: [28, 32],
    zone: ZONE_1X1, hazard: 'red', aircraft: PLANE,
    blueZoneCauser: 'BattleRoyaleModeController_Heaven_C',
    zones: ['coalyards', 'docks', 'industrialpark', 'railyard', 'residential', 'steelmill'],
    weathers: ['Overcast', 'Dark'],
    vehicles: ['BP_Pillar_Car_C', 'BP_Motorbike_04_C'],
    weight: 3, teamSizes: [4], ranked: false,
  },
];

export function demoMap(name: string): DemoMap {
  const map = DEMO_MAPS.find((m) => m.name === name);
  if (!map) throw new RangeError(`unknown demo map ${name}`);
  return map;
}

/** Maps of esports play: the large ones. */
export const ESPORTS_MAPS: readonly string[] = [
  'Baltic_Main',
  'Desert_Main',
  'Tiger_Main',
  'Neon_Main',
];

/** Players in a ranked lobby: sixteen squads, never bots. */
export const RANKED_LOBBY = 64;
