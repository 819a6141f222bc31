/**
 * What must hold of a store whatever happened to the process writing it (kill -9 mid-ingest,
 * a stop signal): every stored match is whole — its rendered document, its rosters and
 * participants (read as findMatchMembers reads them), each human's player row and match-list
 * entry, its telemetry file — and the season and lifetime aggregates equal a recomputation from
 * the stored matches. Returns the problems found (none: []).
 */
import type { BlobStore } from '../../src/blobs/blob-store.ts';
import { isStandardGameMode } from '../../src/domain/game-modes.ts';
import { LIFETIME } from '../../src/domain/seasons.ts';
import { countsTowardLifetime, isBot } from '../../src/domain/stats.ts';
import { findMatchMembers, type StoredMembers } from '../../src/store/match-documents.ts';
import type { Store } from '../../src/store/store.ts';

export async function storeIntegrityProblems(store: Store, blobs: BlobStore): Promise<string[]> {
  const { db } = store;
  const problems: string[] = [];
  const matches = await db.selectFrom('matches').selectAll().execute();
  const entries = await db.selectFrom('player_matches').selectAll().execute();
  const players = await db.selectFrom('players').select(['platform', 'account_id']).execute();
  const documents = await db.selectFrom('match_documents').select('match_id').execute();

  const entryKeys = new Set(entries.map((e) => `${e.platform}/${e.account_id}/${e.match_id}`));
  const playerKeys = new Set(players.map((p) => `${p.platform}/${p.account_id}`));
  const documented = new Set(documents.map((d) => d.match_id));
  // Each participant with its stats, from its match's rows or rendered document (no document:
  // that match is reported, and its participants are left out of the sums).
  const participants: Participant[] = [];
  for (const match of matches) {
    if (!documented.has(match.id)) {
      problems.push(`${match.id}: no rendered document`);
      continue;
    }
    let members: StoredMembers;
    try {
      members = await findMatchMembers(db, match.id, match.platform);
    } catch (error) {
      problems.push(`${match.id}: members unreadable: ${(error as Error).message}`);
      continue;
    }
    const rosterIds = new Set(members.rosters.map((r) => r.id));
    if (members.rosters.length === 0) problems.push(`${match.id}: no rosters`);
    if (members.participants.length === 0) problems.push(`${match.id}: no participants`);
    if (match.telemetry_key !== null) {
      const blob = await blobs.get(match.telemetry_key);
      if (blob === null)
        problems.push(`${match.id}: telemetry file ${match.telemetry_key} missing`);
      else blob.stream.destroy();
    }
    for (const p of members.participants) {
      participants.push({
        match_id: match.id,
        player_id: p.playerId,
        shard: p.platform,
        stats: p.statsJson,
      });
      if (!rosterIds.has(p.rosterId)) {
        problems.push(`${match.id}: participant of unknown roster ${p.rosterId}`);
      }
      if (isBot(p.playerId)) continue;
      if (!entryKeys.has(`${p.platform}/${p.playerId}/${match.id}`)) {
        problems.push(`${match.id}: ${p.playerId} has no match-list entry`);
      }
      if (!playerKeys.has(`${p.platform}/${p.playerId}`)) {
        problems.push(`${match.id}: ${p.playerId} has no player row`);
      }
    }
  }
  const matchIds = new Set(matches.map((m) => m.id));
  for (const entry of entries) {
    if (!matchIds.has(entry.match_id)) problems.push(`entry for missing match ${entry.match_id}`);
  }

  problems.push(...(await aggregateProblems(store, matches, participants, entries)));
  return problems;
}

interface Participant {
  match_id: string;
  player_id: string;
  shard: string;
  stats: string;
}

/** Rounds played and kills per player, season (and lifetime) and mode, recomputed and compared. */
async function aggregateProblems(
  store: Store,
  matches: Array<{ id: string; game_mode: string; is_custom: number }>,
  participants: Participant[],
  entries: Array<{ platform: string; account_id: string; match_id: string; season_id: string }>,
): Promise<string[]> {
  const matchById = new Map(matches.map((m) => [m.id, m]));
  const seasonOf = new Map(
    entries.map((e) => [`${e.platform}/${e.account_id}/${e.match_id}`, e.season_id]),
  );
  const expected = new Map<string, { rounds: number; kills: number }>();
  const add = (key: string, kills: number): void => {
    const sum = expected.get(key) ?? { rounds: 0, kills: 0 };
    expected.set(key, { rounds: sum.rounds + 1, kills: sum.kills + kills });
  };
  for (const p of participants) {
    const match = matchById.get(p.match_id)!;
    if (isBot(p.player_id) || match.is_custom === 1 || !isStandardGameMode(match.game_mode)) {
      continue;
    }
    const seasonId = seasonOf.get(`${p.shard}/${p.player_id}/${p.match_id}`);
    if (seasonId === undefined) continue; // reported above
    const kills = (JSON.parse(p.stats) as { kills: number }).kills;
    add(`${p.shard}/${p.player_id}/${seasonId}/${match.game_mode}`, kills);
    if (countsTowardLifetime(seasonId)) {
      add(`${p.shard}/${p.player_id}/${LIFETIME}/${match.game_mode}`, kills);
    }
  }
  const stored = await store.db
    .selectFrom('season_stats')
    .select(['platform', 'account_id', 'season_id', 'game_mode', 'rounds_played', 'kills'])
    .execute();
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const row of stored) {
    const key = `${row.platform}/${row.account_id}/${row.season_id}/${row.game_mode}`;
    seen.add(key);
    const want = expected.get(key) ?? { rounds: 0, kills: 0 };
    const got = { rounds: Number(row.rounds_played), kills: Number(row.kills) };
    if (got.rounds !== want.rounds || got.kills !== want.kills) {
      problems.push(
        `aggregate ${key}: stored ${JSON.stringify(got)}, recomputed ${JSON.stringify(want)}`,
      );
    }
  }
  for (const key of expected.keys()) {
    if (!seen.has(key)) problems.push(`aggregate ${key}: missing`);
  }
  return problems;
}
