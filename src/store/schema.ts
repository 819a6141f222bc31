import type { Generated } from 'kysely';
import type { SeasonStatsValues } from '../domain/stats.ts';
import type {
  MasteryPendingTelemetryTable,
  SurvivalMasteryTable,
  WeaponMasteryTable,
  WeaponMedalsTable,
} from './mastery-tables.ts';

/**
 * Row types of every table, as Kysely sees them. Timestamps are epoch milliseconds (UTC);
 * booleans are 0/1 integers so both databases store them alike.
 */
export interface PlayersTable {
  platform: string;
  account_id: string;
  /** The name of the player's most recent ingested match. */
  name: string;
  ban_type: string;
  clan_id: string;
  first_seen_at: number;
  /** createdAt of the newest match that named the player; decides which name is current. */
  last_seen_at: number;
  /** Region shard of the player's newest match ('' before any); places them on regional leaderboards. */
  region: string;
}

export interface MatchesTable {
  id: string;
  platform: string;
  region: string;
  created_at: number;
  duration: number;
  game_mode: string;
  map_name: string;
  match_type: string;
  is_custom: number;
  season_state: string;
  season_id: string;
  title_id: string;
  tournament_id: string | null;
  asset_id: string;
  asset_created_at: number;
  /** Blob store key of the gzip telemetry file; null when the match came without telemetry. */
  telemetry_key: string | null;
  ingested_at: number;
}

export interface RostersTable {
  match_id: string;
  id: string;
  team_id: number;
  rank: number;
  won: number;
  /** Position in the match's roster list, so documents render in ingest order. */
  position: number;
}

export interface ParticipantsTable {
  match_id: string;
  id: string;
  roster_id: string;
  player_id: string;
  shard: string;
  /**
   * The participant's stats object as JSON, exactly as rendered in match documents. Only a
   * recorded match has participant rows now (findMatchMembers, src/store/match-documents.ts);
   * rows of rendered matches stored on 2026-12-02 leave it empty (STATS_IN_DOCUMENT).
   */
  stats: string;
  position: number;
}

export interface PlayerMatchesTable {
  platform: string;
  account_id: string;
  match_id: string;
  created_at: number;
  game_mode: string;
  season_id: string;
  is_custom: number;
}

/**
 * Per player, season and standard game mode: the running aggregates behind season stats. The
 * stat columns are the domain's SeasonStatsValues (src/domain/stats.ts documents each formula).
 */
export interface SeasonStatsTable extends SeasonStatsValues {
  platform: string;
  account_id: string;
  season_id: string;
  game_mode: string;
  updated_at: number;
  /**
   * The player's `players.region`, copied beside every aggregate of theirs (kept equal by the
   * triggers of migration 0015), for the leaderboard rebuild's covering index.
   */
  region: Generated<string>;
}

/** The distinct UTC days a player played a mode in a season, behind the `days` stat. */
export interface StatDaysTable {
  platform: string;
  account_id: string;
  season_id: string;
  game_mode: string;
  day: number;
}

export interface SeasonsTable {
  platform: string;
  id: string;
  position: number;
  starts_at: number | null;
  is_offseason: number;
}

export interface TournamentsTable {
  id: string;
  created_at: number;
}

export interface ApiKeysTable {
  id: string;
  name: string;
  /** SHA-256 of the key, hex; the key itself is never stored. */
  key_hash: string;
  rate_per_minute: number;
  created_at: number;
  revoked_at: number | null;
  /** 'read' or 'ingest' (src/store/api-keys.ts). */
  scope: string;
}

/**
 * Match documents rendered once per variant (shard spelling and base URLs), kept as gzip bytes
 * only (the identity bytes are their gunzip). `etag` names the identity bytes.
 */
export interface MatchDocumentsTable {
  match_id: string;
  variant: string;
  etag: string;
  body_gzip: Buffer;
  created_at: number;
}

export interface JobLocksTable {
  name: string;
  /** The instance holding the lease, null when free. */
  owner: string | null;
  /** The lease ends here (epoch ms); another instance may take the job after it. */
  locked_until: number;
  last_started_at: number | null;
  last_finished_at: number | null;
  last_error: string | null;
  /** 1 when a completed load asked for a rebuild the job has not started yet. */
  rebuild_requested: Generated<number>;
}

export interface DemoRunsTable {
  seed: number;
  scale: number;
  /** The instant the demo data set was generated for (epoch ms): its `now`. */
  generated_for: number;
  started_at: number;
  /** Null while the load is unfinished (running, or interrupted). */
  finished_at: number | null;
}

export interface LeaderboardsTable {
  platform: string;
  season_id: string;
  game_mode: string;
  /** Id of the current build; its entries are in leaderboard_entries. */
  id: string;
  built_at: number;
  /** When the next rebuild is due: responses are cacheable until then. */
  expires_at: number;
}

export interface LeaderboardEntriesTable {
  leaderboard_id: string;
  rank: number;
  account_id: string;
  name: string;
  region: string;
  rank_points: number;
  games: number;
  wins: number;
  kills: number;
  damage_dealt: number;
  win_place_sum: number;
  tier: string;
  sub_tier: string;
}

export interface SampleListsTable {
  id: string;
  region: string;
  /** The sample's time: the end of the 24-hour window its matches were created in. */
  created_at: number;
  window_start: number;
  /** Bumped whenever the list's matches change (a purge), so rendered copies know they are stale. */
  revision: number;
  /** Matches of its region and window (within retention) when its entries were drawn. */
  drawn_from: Generated<number>;
}

export interface SampleMatchesTable {
  sample_id: string;
  match_id: string;
  position: number;
}

/**
 * Per player, platform, season and ranked mode: the ranked state (src/domain/ranked-stats.ts
 * documents each member), folded from `ranked_results` in match order.
 */
export interface RankedStatsTable {
  platform: string;
  account_id: string;
  season_id: string;
  game_mode: string;
  rank_points: number;
  best_rank_points: number;
  rounds_played: number;
  wins: number;
  top10s: number;
  kills: number;
  deaths: number;
  assists: number;
  dbnos: number;
  damage_dealt: number;
  win_place_sum: number;
  /** createdAt and id of the newest match counted (match order). */
  last_match_at: number;
  last_match_id: string;
  updated_at: number;
}

/** One player's part in one ranked match; kept after the match itself is purged. */
export interface RankedResultsTable {
  platform: string;
  account_id: string;
  season_id: string;
  game_mode: string;
  created_at: number;
  match_id: string;
  win_place: number;
  won: number;
  kills: number;
  assists: number;
  dbnos: number;
  damage_dealt: number;
  died: number;
}

/** A clan of a platform, entered through ingest; its members are players whose clan_id is its id. */
export interface ClansTable {
  platform: string;
  id: string;
  name: string;
  tag: string;
  level: number;
  /** When a clan input, recording or member change last touched it (epoch ms). */
  updated_at: number;
}

/**
 * A document of the real service kept as recorded: `kind` is its JSON:API type
 * (`rankedplayerstats`, `clan`, …), `id` what it is about (see src/store/recorded-documents.ts).
 */
export interface RecordedDocumentsTable {
  kind: string;
  platform: string;
  id: string;
  body: Buffer;
  /** Byte range of the top-level `links.self` string value in `body`; -1 when there is none. */
  self_start: number;
  self_end: number;
  /** When the real service gave the document (epoch ms): decides whether it or derived data is served. */
  recorded_at: number;
  ingested_at: number;
}

/** The change feed: what changed, in commit order (src/store/changes.ts). */
export interface ChangesTable {
  /** 1, 2, 3 … without gaps, in commit order; never reused. */
  seq: number;
  /** What kind of thing changed (`api_key`, …): subscribers listen per kind. */
  kind: string;
  /** Which one (an id). */
  key: string;
  /** When it was announced, epoch ms; old rows are pruned by it. */
  at: number;
}

/** One row (id 1): the last seq handed out. */
export interface ChangeHeadTable {
  id: number;
  seq: number;
}

/** Where the upstream crawler stands (src/store/mirror-state.ts). */
export interface MirrorCursorsTable {
  name: string;
  value: string;
  updated_at: number;
}

/** Players whose matches the upstream crawler archives (src/store/mirror-state.ts). */
export interface MirrorWatchTable {
  /** The shard as spelled to the upstream. */
  shard: string;
  name: string;
  /** Null until the upstream has named the player's account. */
  account_id: string | null;
  added_at: number;
  refreshed_at: number | null;
}

export interface Database {
  players: PlayersTable;
  matches: MatchesTable;
  rosters: RostersTable;
  participants: ParticipantsTable;
  player_matches: PlayerMatchesTable;
  season_stats: SeasonStatsTable;
  stat_days: StatDaysTable;
  seasons: SeasonsTable;
  tournaments: TournamentsTable;
  api_keys: ApiKeysTable;
  match_documents: MatchDocumentsTable;
  job_locks: JobLocksTable;
  demo_runs: DemoRunsTable;
  leaderboards: LeaderboardsTable;
  leaderboard_entries: LeaderboardEntriesTable;
  sample_lists: SampleListsTable;
  sample_matches: SampleMatchesTable;
  ranked_stats: RankedStatsTable;
  ranked_results: RankedResultsTable;
  clans: ClansTable;
  recorded_documents: RecordedDocumentsTable;
  changes: ChangesTable;
  change_head: ChangeHeadTable;
  weapon_mastery: WeaponMasteryTable;
  weapon_medals: WeaponMedalsTable;
  survival_mastery: SurvivalMasteryTable;
  mastery_pending_telemetry: MasteryPendingTelemetryTable;
  mirror_cursors: MirrorCursorsTable;
  mirror_watch: MirrorWatchTable;
}
