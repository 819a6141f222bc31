/**
 * Ingest of one finished match, the function every way data enters ends in: validate (nothing
 * is stored for invalid input), resolve its season, store the gzip telemetry file, then write the
 * match and everything derived from it in one transaction, the rendered match document included.
 * Ingesting a stored match again changes nothing — except that a match stored without telemetry
 * takes the telemetry file it now comes with.
 */
import { telemetryPath } from '../presenters/telemetry-url.ts';
import { findStoredMatch, writeIngestedMatch, type StoredMatch } from '../store/ingest-writes.ts';
import { attachTelemetryFile, checkStoredFile } from './attach-telemetry.ts';
import {
  deriveMatch,
  matchTelemetryFile,
  type DerivedMatch,
  type MatchTelemetryOptions,
} from './derive-match.ts';
import { IngestError, MatchNotStoredError } from './ingest-error.ts';
import type { IngestDeps, IngestResult } from './ingest-deps.ts';
import { ingestRows, matchRecord } from './match-rows.ts';
import { resolveMatchSeasons } from './match-seasons.ts';
import type { Platform } from '../domain/shards.ts';
import { holdsText, readTelemetryFile, type TelemetryFile } from './telemetry-file.ts';
import { assertMatchInputSchema } from './match-input-check.ts';
import type { SettleEarly } from './prepare-match.ts';
import { validateMatchInput, type ValidMatch } from './validate-match.ts';

export type { IngestDeps, IngestResult };
export { IngestError };

export interface IngestOptions extends MatchTelemetryOptions {
  /** The recorded JSON:API document the input was read from, exactly as recorded. */
  recorded?: Buffer;
}

/**
 * Validates and stores one match. Throws IngestError (and stores nothing) for invalid input,
 * TelemetryConflictError when a stored match already has a different telemetry file.
 */
export async function ingestMatch(
  deps: IngestDeps,
  input: unknown,
  options: IngestOptions = {},
): Promise<IngestResult> {
  const match = validateMatchInput(input, deps.clock.now(), deps.config, assertMatchInputSchema);
  const file = await matchTelemetryFile(match.input.telemetry, options, deps.config);
  return storeMatch(deps, match, file, () =>
    deriveMatch(match, file, options.recorded ?? null, deps.config),
  );
}

/**
 * Stores a validated match with its telemetry file: resolves its season, and unless the match
 * is stored already (then only its telemetry may be attached), puts the file in the blob store
 * and writes the match with its `derived` documents and mastery rows in one transaction. Shared
 * by ingestMatch and matches prepared by worker threads (prepare-pool.ts).
 */
export async function storeMatch(
  deps: IngestDeps,
  match: ValidMatch,
  file: TelemetryFile | undefined,
  derive: () => Promise<DerivedMatch>,
): Promise<IngestResult> {
  const seasons = await matchSeasons(deps, match);
  const stored = await findStoredMatch(deps.store.db, match.input.id);
  if (stored !== null) return settleStored(deps, stored, file);

  const { documents, mastery } = await derive();
  let telemetryKey: string | null = null;
  if (file) {
    telemetryKey = telemetryBlobKey(match.input.platformShard, match.assetCreatedAt, match.assetId);
    await deps.blobs.put(telemetryKey, file.gzip);
  }
  const rows = ingestRows(match, matchRecord(match, file !== undefined), seasons, {
    telemetryKey,
    mastery,
    documents,
    now: deps.clock.now(),
  });

  let status: 'ingested' | 'duplicate';
  try {
    status = await writeIngestedMatch(deps.store, rows);
  } catch (error) {
    if (telemetryKey) await discardTelemetry(deps, match.input.id, telemetryKey);
    throw error;
  }
  if (status === 'duplicate') {
    // Another ingest of the same match committed first: settle against what it stored.
    const winner = await findStoredMatch(deps.store.db, match.input.id);
    if (winner === null) throw new MatchNotStoredError(match.input.id);
    if (telemetryKey && winner.telemetryKey !== null) {
      await discardTelemetry(deps, match.input.id, telemetryKey);
    }
    return settleStored(deps, winner, file);
  }
  return {
    status: 'ingested',
    matchId: match.input.id,
    platform: match.input.platformShard,
    telemetry: file !== undefined,
  };
}

/**
 * Settles a match ingested again before its telemetry is gzipped or its documents rendered, which
 * a stored match needs neither of: a game server that retries then costs a few reads, not a
 * whole ingest. `text` is the JSON text of the telemetry file the match comes with (undefined:
 * it comes without). Resolves what storeMatch would; null when the match is not stored, or when
 * settling it needs the file gzipped (the stored match has none yet, or the blob store lost it),
 * for storeMatch to settle. Throws as storeMatch does: IngestError when no season holds the
 * match, TelemetryConflictError when it is stored with another file.
 */
export async function settleIfStored(
  deps: IngestDeps,
  match: ValidMatch,
  text: Buffer | undefined,
): Promise<IngestResult | null> {
  const stored = await findStoredMatch(deps.store.db, match.input.id);
  if (stored === null) return null;
  // Refused as storeMatch refuses it, which asks the seasons first.
  await matchSeasons(deps, match);
  if (text === undefined) return settleStored(deps, stored, undefined);
  if (stored.telemetryKey === null) return null;
  const found = await checkStoredFile(deps, stored.id, stored.telemetryKey, (storedGzip) =>
    holdsText(storedGzip, text),
  );
  if (found === 'lost') return null;
  return { matchId: stored.id, platform: stored.platform, status: 'unchanged', telemetry: true };
}

/**
 * settleIfStored as prepareMatch's `settleEarly`: a match is looked up in `deps`' store, at the
 * instant of its task, before it is gzipped and rendered.
 */
export function settleWhenStored(deps: Omit<IngestDeps, 'clock'>): SettleEarly {
  return async (match, text, now) => {
    const result = await settleIfStored({ ...deps, clock: { now: () => now } }, match, text);
    return result === null ? null : { kind: 'stored', result };
  };
}

/** The season of a match on each of its platforms; IngestError when one has none that early. */
async function matchSeasons(deps: IngestDeps, match: ValidMatch): Promise<Map<Platform, string>> {
  const seasons = await resolveMatchSeasons(
    deps.store,
    match.platforms,
    match.createdAt,
    deps.clock,
  );
  if (seasons === null) {
    throw new IngestError(
      'createdAt',
      `no season of ${match.input.platformShard} contains ${match.input.createdAt}`,
    );
  }
  return seasons;
}

/**
 * Telemetry for a stored match, by id (`PUT /ingest/matches/:id/telemetry`): the file as given
 * (gzip or JSON bytes). See attach-telemetry.ts for what 'attached' and 'unchanged' mean.
 */
export async function attachTelemetry(
  deps: IngestDeps,
  matchId: string,
  bytes: Buffer,
): Promise<IngestResult> {
  const stored = await findStoredMatch(deps.store.db, matchId);
  if (stored === null) throw new MatchNotStoredError(matchId);
  return settleStored(deps, stored, await readTelemetryFile(bytes, deps.config.ingestMaxBytes));
}

async function settleStored(
  deps: IngestDeps,
  stored: StoredMatch,
  file: TelemetryFile | undefined,
): Promise<IngestResult> {
  const result = { matchId: stored.id, platform: stored.platform };
  if (file === undefined) {
    return { ...result, status: 'unchanged', telemetry: stored.telemetryKey !== null };
  }
  const key = telemetryBlobKey(stored.platform, stored.assetCreatedAt, stored.assetId);
  const status = await attachTelemetryFile(deps, stored, file, key);
  return { ...result, status, telemetry: true };
}

/**
 * Removes a telemetry file written for a match whose rows were not stored, so no object is left
 * that nothing refers to — unless another ingest of the same match stored the same key
 * meanwhile. Best effort: when the blob store fails as well, the file stays, and the caller's
 * own error is the one reported.
 */
async function discardTelemetry(deps: IngestDeps, matchId: string, key: string): Promise<void> {
  const stored = await findStoredMatch(deps.store.db, matchId).catch(() => undefined);
  if (stored?.telemetryKey === key) return;
  await deps.blobs.delete(key).catch(() => undefined);
}

/**
 * The blob key of a new telemetry file: its URL's path (telemetryPath), so that a bucket or CDN
 * at TELEMETRY_BASE_URL serves it. Readers and retention use the key stored with each match
 * (`matches.telemetry_key`), never this function: matches stored by earlier versions keep their
 * `telemetry/<platform>/<yyyy>/<mm>/<dd>/<assetId>-telemetry.json.gz` keys.
 */
export function telemetryBlobKey(
  platform: string,
  assetCreatedAt: number,
  assetId: string,
): string {
  return telemetryPath(platform, assetCreatedAt, assetId);
}
