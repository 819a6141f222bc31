/**
 * Ingest from files: one JSON file, every `*.json` / `*.json.gz` of a directory (sorted by
 * name), or standard input (`-`). A file holds one match in the ingest format, an array of them,
 * or a recorded JSON:API match document; a recorded document's telemetry is taken from a
 * sibling `<name>.telemetry.json[.gz]` or `<name>-telemetry.json[.gz]` when one exists. Clan and
 * player status inputs and recorded ranked and clan documents (ingest-entity.ts) are taken
 * alike, alone or among the items of an array. Every item gets its own result, and one refused
 * item does not stop the others.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { IngestError, ingestMatch, type IngestDeps } from './ingest-match.ts';
import { ingestEntity, isEntityItem } from './ingest-entity.ts';
import { ingestRecordedMatch, isRecordedMatchDocument } from './recorded-match.ts';

export interface IngestSourceOptions {
  /** Region for recorded documents that name none (see recorded-match.ts). */
  region?: string;
  /** Telemetry file of the one recorded document `source` is (a single file only). */
  telemetry?: string;
  /** Platform shard of recorded ranked and clan documents whose links.self names none. */
  platform?: string;
  /** When recorded ranked and clan documents were recorded, epoch ms (default: now). */
  recordedAt?: number;
  /** Called after each match, e.g. for progress output. */
  onResult?: (result: IngestSourceResult) => void;
}

/** The outcome of one match; `source` names its file (`matches.json[3]` for array items). */
export type IngestSourceResult =
  | { source: string; status: 'ingested' | 'duplicate'; matchId: string }
  | { source: string; status: 'ingested' | 'duplicate'; kind: string; id: string }
  | { source: string; status: 'error'; message: string; matchId?: string };

const TELEMETRY_FILE = /[.-]telemetry\.json(\.gz)?$/;
const MATCH_FILE = /\.json(\.gz)?$/;

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
    await ingestFile(deps, 'stdin', () => readStream(process.stdin), null, options, report);
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
      message: 'a telemetry file goes with a single recorded match document, not a directory',
    });
    return results;
  }
  for (const file of files) {
    await ingestFile(deps, file, () => fs.readFile(file), telemetryOverride, options, report);
  }
  return results;
}

async function ingestFile(
  deps: IngestDeps,
  source: string,
  read: () => Promise<Buffer>,
  telemetryFile: string | null,
  options: IngestSourceOptions,
  report: (result: IngestSourceResult) => void,
): Promise<void> {
  let content: unknown;
  let raw: Buffer;
  try {
    raw = decode(await read());
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
      report({
        source,
        status: 'error',
        message: 'a telemetry file goes with a single recorded match document',
      });
      return;
    }
    for (const [index, item] of content.entries()) {
      report(
        await ingestOne(
          deps,
          `${source}[${index}]`,
          item,
          () => Promise.resolve(undefined),
          options,
        ),
      );
    }
    return;
  }
  const telemetry = async (): Promise<Buffer | undefined> => {
    const file = telemetryFile ?? (source === 'stdin' ? null : await siblingTelemetry(source));
    return file === null ? undefined : fs.readFile(file);
  };
  if (telemetryFile && !isRecordedMatchDocument(content)) {
    report({
      source,
      status: 'error',
      message: 'a telemetry file goes with a recorded match document',
    });
    return;
  }
  report(await ingestOne(deps, source, content, telemetry, options, raw));
}

async function ingestOne(
  deps: IngestDeps,
  source: string,
  item: unknown,
  telemetry: () => Promise<Buffer | undefined>,
  options: IngestSourceOptions,
  raw?: Buffer,
): Promise<IngestSourceResult> {
  if (isEntityItem(item)) return ingestEntityFrom(deps, source, item, options, raw);
  const recorded = isRecordedMatchDocument(item);
  const matchId = idOf(item, recorded);
  try {
    const result = recorded
      ? await ingestRecordedMatch(deps, item, {
          ...(await telemetry().then((t) => (t ? { telemetry: t } : {}))),
          ...(options.region ? { region: options.region } : {}),
        })
      : await ingestMatch(deps, item);
    return { source, status: result.status, matchId: result.matchId };
  } catch (error) {
    const message =
      error instanceof IngestError ? error.message : `${(error as Error).message ?? error}`;
    return { source, status: 'error', message, ...(matchId ? { matchId } : {}) };
  }
}

/** A clan, player status or recorded ranked/clan document (ingest-entity.ts), as a result. */
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
    const message =
      error instanceof IngestError ? error.message : `${(error as Error).message ?? error}`;
    return { source, status: 'error', message };
  }
}

function idOf(item: unknown, recorded: boolean): string | undefined {
  const holder = recorded ? (item as { data: { id?: unknown } }).data : item;
  const id =
    typeof holder === 'object' && holder !== null ? (holder as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : undefined;
}

/** `<name>.telemetry.json[.gz]` or `<name>-telemetry.json[.gz]` beside `<name>.json[.gz]`, if present. */
async function siblingTelemetry(file: string): Promise<string | null> {
  const base = file.replace(MATCH_FILE, '');
  for (const suffix of [
    '.telemetry.json',
    '.telemetry.json.gz',
    '-telemetry.json',
    '-telemetry.json.gz',
  ]) {
    try {
      await fs.access(base + suffix);
      return base + suffix;
    } catch {
      // not this spelling
    }
  }
  return null;
}

/** File bytes, gunzipped when they start with the gzip magic bytes. */
function decode(bytes: Buffer): Buffer {
  return bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
}

async function readStream(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}
