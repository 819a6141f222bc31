/**
 * Ingest from files: one JSON file, every `*.json` / `*.json.gz` of a directory (sorted by
 * name), or standard input (`-`). A file holds one match in the ingest format, an array of them,
 * or a recorded JSON:API match document (kept as the file's bytes); a match's telemetry file is
 * `--telemetry` (a single file only) or a sibling `<name>.telemetry.json[.gz]` or
 * `<name>-telemetry.json[.gz]` when one exists. A match stored without telemetry takes the file
 * it now comes with. Clan and player status inputs and recorded ranked, clan and mastery
 * documents (ingest-entity.ts) are taken alike, alone or among the items of an array. Every item
 * gets its own result, and one refused item does not stop the others.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { IngestDeps, IngestResult } from './ingest-deps.ts';
import { ingestContent, matchIdOf } from './ingest-content.ts';
import { ingestEntity, isEntityItem, type EntityResult } from './ingest-entity.ts';
import { settleWhenStored } from './ingest-match.ts';
import { ingestFilesPooled, storeOutcome, type PooledResult } from './pooled-files.ts';
import { assertMatchInputSchema } from './match-input-check.ts';
import { prepareMatch } from './prepare-match.ts';
import type { PreparePool } from './prepare-pool.ts';
import { isRecordedMatchDocument } from './recorded-match.ts';
import { reusableBuffers, type ReusableBuffers } from './reusable-buffers.ts';
import {
  KEPT_FILE_BYTES,
  MATCH_FILE,
  decode,
  itemTexts,
  readKeptFile,
  readStream,
  siblingTelemetry,
} from './source-files.ts';

export interface IngestSourceOptions {
  /** Region for recorded documents that name none (see recorded-match.ts). */
  region?: string;
  /** Telemetry file of the one match `source` holds (a single file only). */
  telemetry?: string;
  /** Platform shard of recorded ranked, clan and mastery documents whose links.self names none. */
  platform?: string;
  /** When recorded ranked, clan and mastery documents were recorded, epoch ms (default: now). */
  recordedAt?: number;
  /** Worker threads that prepare the matches of a directory while the last one is stored. */
  pool?: PreparePool;
  /** Called after each match, e.g. for progress output. */
  onResult?: (result: IngestSourceResult) => void;
}

/** The outcome of one match; `source` names its file (`matches.json[3]` for array items). */
export type IngestSourceResult =
  | { source: string; status: IngestResult['status']; matchId: string }
  | { source: string; status: EntityResult['status']; kind: string; id: string }
  | { source: string; status: 'error'; message: string; matchId?: string };

const TELEMETRY_FILE = /[.-]telemetry\.json(\.gz)?$/;

/** Ingests every match of a file, a directory or standard input (`-`). */
export async function ingestPath(
  deps: IngestDeps,
  source: string,
  options: IngestSourceOptions = {},
): Promise<IngestSourceResult[]> {
  const results: IngestSourceResult[] = [];
  const report = (result: IngestSourceResult): void => {
    results.push(result);
    options.onResult?.(result);
  };

  if (source === '-') {
    await ingestFile(
      deps,
      'stdin',
      () => readStream(process.stdin).then(decode),
      options.telemetry ?? null,
      options,
      report,
    );
    return results;
  }
  let files: string[];
  let telemetryOverride: string | null = null;
  try {
    const stat = await fs.stat(source);
    if (stat.isDirectory()) {
      const names = (await fs.readdir(source)).filter(
        (n) => MATCH_FILE.test(n) && !TELEMETRY_FILE.test(n),
      );
      files = names.sort().map((name) => path.join(source, name));
    } else {
      files = [source];
      telemetryOverride = options.telemetry ?? null;
    }
  } catch (error) {
    report({ source, status: 'error', message: (error as Error).message });
    return results;
  }
  if (options.telemetry && telemetryOverride === null) {
    report({
      source,
      status: 'error',
      message: 'a telemetry file goes with a single match file, not a directory',
    });
    return results;
  }
  const ingestOneFile = (file: string, kept: ReusableBuffers | null = null): Promise<void> => {
    const read = kept ? async () => readKeptFile(file, kept) : () => fs.readFile(file).then(decode);
    return ingestFile(deps, file, read, telemetryOverride, options, report, kept);
  };
  if (options.pool && files.length > 1) {
    const pooled = (file: string, result: Exclude<PooledResult, null>): void =>
      report({ source: file, ...result });
    await ingestFilesPooled(deps, options.pool, files, pooled, ingestOneFile);
    return results;
  }
  // Each file read into the buffer the one before it was read into.
  const kept = reusableBuffers(1, KEPT_FILE_BYTES);
  for (const file of files) await ingestOneFile(file, kept);
  return results;
}

/**
 * Ingests one file, its bytes as `read` gives them (gunzipped). `kept`: where they were read,
 * given back once a match prepared from them is stored; anything else may keep views of them.
 */
async function ingestFile(
  deps: IngestDeps,
  source: string,
  read: () => Promise<Buffer>,
  telemetryFile: string | null,
  options: IngestSourceOptions,
  report: (result: IngestSourceResult) => void,
  kept: ReusableBuffers | null = null,
): Promise<void> {
  let raw: Buffer;
  try {
    raw = await read();
  } catch (error) {
    report({
      source,
      status: 'error',
      message: `not a readable JSON file: ${(error as Error).message}`,
    });
    return;
  }
  const telemetry = telemetryFile ?? (source === 'stdin' ? null : await siblingTelemetry(source));
  let telemetryBytes: Buffer | undefined;
  try {
    telemetryBytes = telemetry === null ? undefined : await fs.readFile(telemetry);
  } catch (error) {
    report({ source, status: 'error', message: (error as Error).message });
    return;
  }
  // A match in the ingest format is prepared from its bytes, as the pool's workers prepare it
  // (its telemetry events scanned, not parsed, but those the mastery tally reads). An array of
  // items is not one, and is parsed once, below.
  if (isObjectText(raw)) {
    const outcome = await prepareMatch(
      {
        source: raw,
        ...(telemetryBytes ? { telemetry: telemetryBytes } : {}),
        now: deps.clock.now(),
      },
      deps.config,
      assertMatchInputSchema,
      settleWhenStored(deps),
    );
    const prepared = await storeOutcome(deps, outcome);
    if (prepared !== null) {
      kept?.give(raw);
      report({ source, ...prepared });
      return;
    }
  }

  let content: unknown;
  try {
    content = JSON.parse(raw.toString('utf8'));
  } catch (error) {
    report({
      source,
      status: 'error',
      message: `not a readable JSON file: ${(error as Error).message}`,
    });
    return;
  }

  if (Array.isArray(content)) {
    if (telemetryFile) {
      report({ source, status: 'error', message: 'a telemetry file goes with a single match' });
      return;
    }
    const keepsBytes = (item: unknown) => isRecordedMatchDocument(item) || isEntityItem(item);
    const texts = content.some(keepsBytes) ? itemTexts(raw) : [];
    for (const [index, item] of content.entries()) {
      const text = texts[index];
      report(
        await ingestOne(deps, `${source}[${index}]`, item, options, {
          ...(text === undefined ? {} : { raw: Buffer.from(text) }),
          ...(options.region ? { region: options.region } : {}),
        }),
      );
    }
    return;
  }
  report(
    await ingestOne(deps, source, content, options, {
      raw,
      ...(telemetryBytes ? { telemetry: telemetryBytes } : {}),
      ...(options.region ? { region: options.region } : {}),
    }),
  );
}

/** True when the JSON text's first byte past leading white space opens an object. */
function isObjectText(bytes: Buffer): boolean {
  for (const byte of bytes) {
    if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) return byte === 0x7b;
  }
  return false;
}

async function ingestOne(
  deps: IngestDeps,
  source: string,
  item: unknown,
  sourceOptions: IngestSourceOptions,
  options: NonNullable<Parameters<typeof ingestContent>[2]>,
): Promise<IngestSourceResult> {
  if (isEntityItem(item)) return ingestEntityFrom(deps, source, item, sourceOptions, options.raw);
  const matchId = matchIdOf(item);
  try {
    const result = await ingestContent(deps, item, options);
    return { source, status: result.status, matchId: result.matchId };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { source, status: 'error', message, ...(matchId ? { matchId } : {}) };
  }
}

/** A clan, player status or recorded document (ingest-entity.ts), as a result. */
async function ingestEntityFrom(
  deps: IngestDeps,
  source: string,
  item: unknown,
  options: IngestSourceOptions,
  raw: Buffer | undefined,
): Promise<IngestSourceResult> {
  try {
    const { status, kind, id } = await ingestEntity(deps, item, {
      ...(raw ? { raw } : {}),
      ...(options.platform ? { platform: options.platform } : {}),
      ...(options.recordedAt !== undefined ? { recordedAt: options.recordedAt } : {}),
    });
    return { source, status, kind, id };
  } catch (error) {
    return {
      source,
      status: 'error',
      message: error instanceof Error ? error.message : String(error),
    };
  }
}
