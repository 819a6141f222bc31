/**
 * Row types of the mastery tables (migration 0008), and the column names of the survival stats,
 * which follow the domain's stat keys in snake case (`airDropsCalled` → `air_drops_called_total`,
 * `…_best`, `…_last`).
 */
import { SURVIVAL_STATS, type SurvivalStatKey } from '../domain/survival-mastery.ts';
import type { WeaponMatchKind } from '../domain/weapon-mastery.ts';

/** A weapon's career for one player in one kind of match. Metres, HP; times epoch ms. */
export interface WeaponMasteryTable {
  platform: string;
  account_id: string;
  weapon_id: string;
  kind: WeaponMatchKind;
  xp: number;
  kills: number;
  defeats: number;
  groggies: number;
  head_shots: number;
  damage_player: number;
  long_range_defeats: number;
  longest_defeat: number;
  longest_kill: number;
  most_kills: number;
  most_defeats: number;
  most_groggies: number;
  most_head_shots: number;
  most_damage_player: number;
  /** The newest match (by createdAt) that added to the row. */
  latest_match_id: string;
  latest_match_at: number;
}

/** How often a player earned a medal with a weapon. */
export interface WeaponMedalsTable {
  platform: string;
  account_id: string;
  weapon_id: string;
  medal_id: string;
  count: number;
}

type Snake<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${Snake<Tail>}`
  : S;
export type SurvivalStatPart = 'total' | 'best' | 'last';
export type SurvivalStatColumn = `${Snake<SurvivalStatKey>}_${SurvivalStatPart}`;

const STAT_COLUMNS = new Map(
  SURVIVAL_STATS.map(({ key }) => {
    const snake = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    const column = (part: SurvivalStatPart) => `${snake}_${part}` as SurvivalStatColumn;
    return [key, { total: column('total'), best: column('best'), last: column('last') }];
  }),
);

/** Every survival stat column, in table order. */
export const SURVIVAL_STAT_COLUMNS: readonly SurvivalStatColumn[] = [
  ...STAT_COLUMNS.values(),
].flatMap((columns) => [columns.total, columns.best, columns.last]);

/** The column of one part of a survival stat. */
export function survivalStatColumn(
  key: SurvivalStatKey,
  part: SurvivalStatPart,
): SurvivalStatColumn {
  return STAT_COLUMNS.get(key)![part];
}

/** A player's survival career on one platform. */
export type SurvivalMasteryTable = {
  platform: string;
  account_id: string;
  xp: number;
  /** Counted matches, and those of them whose telemetry was read. */
  matches_played: number;
  telemetry_matches: number;
  /** The newest counted match by createdAt: its values are the `lastMatchValue`s. */
  last_match_id: string;
  last_match_at: number;
} & Record<SurvivalStatColumn, number>;

/**
 * Matches stored without telemetry whose telemetry part of mastery is still due: the telemetry
 * attached later takes the row and adds that part, exactly once.
 */
export interface MasteryPendingTelemetryTable {
  match_id: string;
  created_at: number;
}
