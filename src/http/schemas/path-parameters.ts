/**
 * What each path parameter means, by name: the OpenAPI document describes a route's parameters
 * from this table (a route's own schema adds constraints), so every `:shard` reads the same.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { STANDARD_GAME_MODES } from '../../domain/game-modes.ts';

/** Longest path segment the router takes (Fastify's `maxParamLength`); longer ones are a 400. */
export const MAX_PATH_SEGMENT = 100;

const param = (description: string, example: string): TSchema =>
  Type.String({ maxLength: MAX_PATH_SEGMENT, description, examples: [example] });

const datePart = (part: string, example: string): TSchema =>
  param(`${part} of the asset's \`createdAt\` (UTC), as its URL spells it`, example);

export const PATH_PARAMETERS: Readonly<Record<string, TSchema>> = {
  shard: param(
    'Platform shard (`pc-a`, `pc-b`, `console-a`, `console-b`, `tournament`), a platform-region ' +
      'shard where the route takes one (`pc-eu`, `console-b-na` …), or an alias from ' +
      '`SHARD_ALIASES` (`steam`, `kakao` … by default). Answers spell it as the request did.',
    'pc-b',
  ),
  accountId: param(
    'Account id: `account.` and 32 lowercase hex digits',
    'account.3f6c0a7b2d9e4f1a8c5b6d7e8f9a0b1c',
  ),
  matchId: param('Match id (a UUID)', '6a0f3c2e-1b4d-4e8f-9a7c-5d2b1e0f3a4c'),
  seasonId: param(
    'Season id from the season list; `lifetime` for lifetime stats where the route says so',
    'division.bro.official.pc-2018-45',
  ),
  gameMode: param(
    `A standard game mode: ${STANDARD_GAME_MODES.map((mode) => `\`${mode}\``).join(', ')}`,
    'squad-fpp',
  ),
  tournamentId: param('Tournament id, from the tournament list', 'eu-cup5'),
  yyyy: datePart('Year', '2026'),
  mm: datePart('Month', '11'),
  dd: datePart('Day', '20'),
  hh: datePart('Hour', '10'),
  min: datePart('Minute', '32'),
  file: param('`<asset id>-telemetry.json`', '5d1e7a60-c6b2-11f1-8e1f-0242ac120002-telemetry.json'),
};
