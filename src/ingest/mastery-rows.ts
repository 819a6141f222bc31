/**
 * What a match adds to weapon and survival mastery, as rows for the store: derived from its
 * participant stats and, when it has them, its telemetry events (read once, mastery-telemetry.ts).
 * A match stored without telemetry adds the participant part and is marked pending; telemetry
 * attached later adds the telemetry part then (mastery-late-telemetry.ts).
 */
import { hotDropLandings } from '../domain/hot-drops.ts';
import {
  countsTowardSurvivalMastery,
  participantSurvivalValues,
  participantSurvivalXp,
  telemetrySurvivalXp,
  type ParticipantStatKey,
  type TelemetryStatKey,
} from '../domain/survival-mastery.ts';
import { weaponGameTotals, weaponMatchKind, type WeaponGame } from '../domain/weapon-mastery.ts';
import { matchMedals } from '../domain/weapon-medals.ts';
import type { MatchMasteryRows } from '../store/mastery-writes.ts';
import {
  SURVIVAL_STAT_COLUMNS,
  survivalStatColumn,
  type SurvivalMasteryTable,
  type WeaponMasteryTable,
} from '../store/mastery-tables.ts';
import { tallyMatchTelemetry, type MatchTelemetry } from './mastery-telemetry.ts';
import type { MasteryMatch, MasteryPlayer } from './mastery-match.ts';

/**
 * The rows of a newly ingested match: its participant part, and its telemetry part when
 * `events` are given (null: no telemetry, the match is marked pending).
 */
export function matchMasteryRows(
  match: MasteryMatch,
  events: readonly unknown[] | null,
): MatchMasteryRows {
  return masteryRows(match, events, true);
}

/** The telemetry part alone, for telemetry attached to a match stored without it. */
export function telemetryMasteryRows(
  match: MasteryMatch,
  events: readonly unknown[],
): MatchMasteryRows {
  return masteryRows(match, events, false);
}

function masteryRows(
  match: MasteryMatch,
  events: readonly unknown[] | null,
  withParticipantPart: boolean,
): MatchMasteryRows {
  const kind = weaponMatchKind(match);
  const survives = countsTowardSurvivalMastery(match);
  const rows: MatchMasteryRows = { weapons: [], medals: [], survival: [], pending: null };
  if ((kind === null && !survives) || match.players.length === 0) return rows;
  const telemetry =
    events &&
    tallyMatchTelemetry(
      events,
      match.players.map((p) => p.accountId),
    );
  if (events === null && withParticipantPart)
    rows.pending = { match_id: match.id, created_at: match.createdAt };
  if (telemetry && kind !== null) {
    addWeaponRows(rows, match, telemetry, kind);
  }
  if (!survives) return rows;
  const hot = telemetry ? hotDropLandings(telemetry.landings) : new Set<string>();
  for (const player of match.players) {
    const row = emptySurvivalRow(player, match);
    if (withParticipantPart) {
      const values = participantSurvivalValues(player.stats);
      setValues(row, values);
      row.xp += participantSurvivalXp(values);
      row.matches_played = 1;
    }
    const tally = telemetry?.players.get(player.accountId);
    if (tally) {
      const values: Record<TelemetryStatKey, number> = {
        airDropsCalled: tally.airDropsCalled,
        damageTaken: tally.damageTaken,
        healed: tally.healed,
        hotDropLandings: hot.has(player.accountId) ? 1 : 0,
        enemyCratesLooted: tally.crates.size,
        uniqueItemsLooted: tally.items.size,
        revived: tally.revived,
        throwablesThrown: tally.throwablesThrown,
      };
      setValues(row, values);
      row.xp += telemetrySurvivalXp(values);
      row.telemetry_matches = 1;
    }
    rows.survival.push(row);
  }
  return rows;
}

function addWeaponRows(
  rows: MatchMasteryRows,
  match: MasteryMatch,
  telemetry: MatchTelemetry,
  kind: WeaponMasteryTable['kind'],
): void {
  const platformOf = new Map(match.players.map((p) => [p.accountId, p.platform]));
  const games = new Map<string, ReadonlyMap<string, WeaponGame>>();
  for (const [accountId, tally] of telemetry.players) {
    if (tally.weapons.size === 0) continue;
    games.set(accountId, tally.weapons);
    for (const [weaponId, game] of tally.weapons) {
      const t = weaponGameTotals(game);
      rows.weapons.push({
        platform: platformOf.get(accountId)!,
        account_id: accountId,
        weapon_id: weaponId,
        kind,
        xp: t.xp,
        kills: t.kills,
        defeats: t.defeats,
        groggies: t.groggies,
        head_shots: t.headShots,
        damage_player: t.damagePlayer,
        long_range_defeats: t.longRangeDefeats,
        longest_defeat: t.longestDefeat,
        longest_kill: t.longestKill,
        most_kills: t.mostKills,
        most_defeats: t.mostDefeats,
        most_groggies: t.mostGroggies,
        most_head_shots: t.mostHeadShots,
        most_damage_player: t.mostDamagePlayer,
        latest_match_id: match.id,
        latest_match_at: match.createdAt,
      });
    }
  }
  const winners = new Set(match.players.filter((p) => p.rank === 1).map((p) => p.accountId));
  for (const medal of matchMedals({
    defeats: telemetry.defeats,
    games,
    winners,
    teamSizes: match.teamSizes,
  })) {
    rows.medals.push({
      platform: platformOf.get(medal.accountId)!,
      account_id: medal.accountId,
      weapon_id: medal.weaponId,
      medal_id: medal.medalId,
      count: medal.count,
    });
  }
}

/** Every column in one order (batched statements need it), stats at 0; copied per row. */
const EMPTY_SURVIVAL_ROW: Readonly<Record<string, string | number>> = Object.fromEntries([
  ...['platform', 'account_id', 'last_match_id'].map((column) => [column, '']),
  ...['xp', 'matches_played', 'telemetry_matches', 'last_match_at'].map((c) => [c, 0]),
  ...SURVIVAL_STAT_COLUMNS.map((column) => [column, 0]),
]);

function emptySurvivalRow(player: MasteryPlayer, match: MasteryMatch): SurvivalMasteryTable {
  const row = { ...EMPTY_SURVIVAL_ROW } as SurvivalMasteryTable;
  row.platform = player.platform;
  row.account_id = player.accountId;
  row.last_match_id = match.id;
  row.last_match_at = match.createdAt;
  return row;
}

/** One match's values are its total, its best and its last value alike. */
function setValues(
  row: SurvivalMasteryTable,
  values: Partial<Record<ParticipantStatKey | TelemetryStatKey, number>>,
): void {
  for (const [key, value] of Object.entries(values) as Array<[ParticipantStatKey, number]>) {
    for (const part of ['total', 'best', 'last'] as const)
      row[survivalStatColumn(key, part)] = value;
  }
}
