/**
 * Mastery reads: a player's weapon and survival careers for the mastery documents, and a stored
 * match's facts for telemetry that arrives after it.
 */
import { SURVIVAL_STATS, type SurvivalCareer } from '../domain/survival-mastery.ts';
import type {
  WeaponCareer,
  WeaponMasteryCareer,
  WeaponMatchKind,
  WeaponTotals,
} from '../domain/weapon-mastery.ts';
import {
  survivalStatColumn,
  type SurvivalMasteryTable,
  type WeaponMasteryTable,
} from './mastery-tables.ts';
import { findMatchMembers } from './match-documents.ts';
import type { Db } from './store.ts';

/** A player's weapons on a platform: one career per weapon used, none before any. */
export async function findWeaponMastery(
  db: Db,
  platform: string,
  accountId: string,
): Promise<WeaponMasteryCareer> {
  const [weapons, medals] = await Promise.all([
    db
      .selectFrom('weapon_mastery')
      .selectAll()
      .where('platform', '=', platform)
      .where('account_id', '=', accountId)
      .execute(),
    db
      .selectFrom('weapon_medals')
      .select(['weapon_id', 'medal_id', 'count'])
      .where('platform', '=', platform)
      .where('account_id', '=', accountId)
      .execute(),
  ]);
  type Career = WeaponCareer & {
    kinds: Map<WeaponMatchKind, WeaponTotals>;
    medals: Array<{ medalId: string; count: number }>;
  };
  const careers = new Map<string, Career>();
  const careerOf = (weaponId: string): Career => {
    let career = careers.get(weaponId);
    if (!career) careers.set(weaponId, (career = { weaponId, kinds: new Map(), medals: [] }));
    return career;
  };
  let latest = { id: '', at: -Infinity };
  for (const row of weapons) {
    careerOf(row.weapon_id).kinds.set(row.kind, weaponTotals(row));
    if (row.latest_match_at > latest.at)
      latest = { id: row.latest_match_id, at: row.latest_match_at };
  }
  for (const row of medals) {
    careerOf(row.weapon_id).medals.push({ medalId: row.medal_id, count: row.count });
  }
  return {
    latestMatchId: latest.id,
    latestMatchAt: weapons.length === 0 ? null : latest.at,
    weapons: [...careers.values()],
  };
}

function weaponTotals(row: WeaponMasteryTable): WeaponTotals {
  return {
    xp: row.xp,
    kills: row.kills,
    defeats: row.defeats,
    groggies: row.groggies,
    headShots: row.head_shots,
    damagePlayer: row.damage_player,
    longRangeDefeats: row.long_range_defeats,
    longestDefeat: row.longest_defeat,
    longestKill: row.longest_kill,
    mostKills: row.most_kills,
    mostDefeats: row.most_defeats,
    mostGroggies: row.most_groggies,
    mostHeadShots: row.most_head_shots,
    mostDamagePlayer: row.most_damage_player,
  };
}

/** A player's survival career, or null before their first counted match. */
export async function findSurvivalMastery(
  db: Db,
  platform: string,
  accountId: string,
): Promise<SurvivalCareer | null> {
  const row = await db
    .selectFrom('survival_mastery')
    .selectAll()
    .where('platform', '=', platform)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row ? survivalCareer(row) : null;
}

function survivalCareer(row: SurvivalMasteryTable): SurvivalCareer {
  const stats = {} as Record<string, SurvivalCareer['stats'][keyof SurvivalCareer['stats']]>;
  for (const { key } of SURVIVAL_STATS) {
    stats[key] = {
      total: row[survivalStatColumn(key, 'total')],
      best: row[survivalStatColumn(key, 'best')],
      last: row[survivalStatColumn(key, 'last')],
    };
  }
  return {
    xp: row.xp,
    matchesPlayed: row.matches_played,
    telemetryMatches: row.telemetry_matches,
    lastMatchId: row.last_match_id,
    lastMatchAt: row.last_match_at,
    stats: stats as SurvivalCareer['stats'],
  };
}

/** What mastery needs of a stored match. `stats` is each participant's stats JSON. */
export interface StoredMasteryMatch {
  id: string;
  createdAt: number;
  matchType: string;
  isCustom: boolean;
  rosters: Array<{ id: string; teamId: number; rank: number }>;
  participants: Array<{ playerId: string; platform: string; rosterId: string; stats: string }>;
}

export async function findMasteryMatch(
  db: Db,
  matchId: string,
): Promise<StoredMasteryMatch | null> {
  const match = await db
    .selectFrom('matches')
    .select(['id', 'platform', 'created_at', 'match_type', 'is_custom'])
    .where('id', '=', matchId)
    .executeTakeFirst();
  if (match === undefined) return null;
  const members = await findMatchMembers(db, matchId, match.platform);
  return {
    id: match.id,
    createdAt: match.created_at,
    matchType: match.match_type,
    isCustom: match.is_custom === 1,
    rosters: members.rosters.map((r) => ({ id: r.id, teamId: r.teamId, rank: r.rank })),
    participants: members.participants.map((p) => ({
      playerId: p.playerId,
      platform: p.platform,
      rosterId: p.rosterId,
      stats: p.statsJson,
    })),
  };
}
