/** Every documented schema with an `$id`: the components of the OpenAPI document. */
import type { TSchema } from '@sinclair/typebox';
import { ErrorDocument } from './json-api.ts';
import { HealthDocument, StatusDocument } from './service-documents.ts';
import { PlayerDocument, PlayerListDocument } from './player-documents.ts';
import {
  GameModeStats,
  PlayerSeasonDocument,
  PlayerSeasonListDocument,
  SeasonListDocument,
} from './season-documents.ts';
import { MatchDocument, ParticipantStats, TelemetryFile } from './match-document.ts';
import { LeaderboardDocument } from './leaderboard-document.ts';
import { SampleDocument } from './sample-document.ts';
import { TournamentDocument, TournamentListDocument } from './tournament-documents.ts';
import { RankedGameModeStats, RankedStatsDocument } from './ranked-document.ts';
import { ClanDocument } from './clan-document.ts';
import {
  SurvivalMasteryDocument,
  WeaponKindTotals,
  WeaponMasteryDocument,
  WeaponSummary,
} from './mastery-documents.ts';

export const DOCUMENT_SCHEMAS: ReadonlyArray<TSchema & { $id: string }> = [
  ErrorDocument,
  StatusDocument,
  HealthDocument,
  PlayerListDocument,
  PlayerDocument,
  SeasonListDocument,
  GameModeStats,
  PlayerSeasonDocument,
  PlayerSeasonListDocument,
  ParticipantStats,
  MatchDocument,
  TelemetryFile,
  LeaderboardDocument,
  SampleDocument,
  TournamentListDocument,
  TournamentDocument,
  RankedGameModeStats,
  RankedStatsDocument,
  ClanDocument,
  WeaponKindTotals,
  WeaponSummary,
  WeaponMasteryDocument,
  SurvivalMasteryDocument,
] as ReadonlyArray<TSchema & { $id: string }>;
