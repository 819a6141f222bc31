/**
 * Reading the files `gamedata ingest` is given: gzip or plain bytes, standard input, the exact
 * text of each item of a JSON array, and the telemetry file beside a match file.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import fs from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { parseTree } from 'jsonc-parser';
import type { ReusableBuffers } from './reusable-buffers.ts';

/** A match file's name (`*.json`, `*.json.gz`). */
export const MATCH_FILE = /\.json(\.gz)?$/;

/** The exact JSON text of each item of a JSON array (so recorded documents keep their bytes). */
export function itemTexts(raw: Buffer): string[] {
  const text = raw.toString('utf8');
  return (parseTree(text)?.children ?? []).map((node) =>
    text.slice(node.offset, node.offset + node.length),
  );
}

/** `<name>.telemetry.json[.gz]` or `<name>-telemetry.json[.gz]` beside `<name>.json[.gz]`, if present. */
export async function siblingTelemetry(file: string): Promise<string | null> {
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
export function decode(bytes: Buffer): Buffer {
  return bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
}

/** Files of up to this many bytes (gunzipped) are read into a buffer kept for the next one. */
export const KEPT_FILE_BYTES = 64 * 1_048_576;

/**
 * A match file and its sibling telemetry file, read for a worker that prepares it: the match
 * into a buffer from `buffers` (readKeptFile), which `release` gives back once nothing refers
 * to its bytes; the sibling into one of its own, since a gzip telemetry file is stored as
 * given and would keep a view of a kept buffer.
 */
export async function readMatchFile(
  file: string,
  buffers: ReusableBuffers,
): Promise<{ source: Buffer; telemetry?: Buffer; release(): void }> {
  const source = readKeptFile(file, buffers);
  const sibling = await siblingTelemetry(file);
  const telemetry = sibling === null ? undefined : await fs.readFile(sibling);
  return {
    source,
    ...(telemetry ? { telemetry } : {}),
    release: () => buffers.give(source),
  };
}

/**
 * A file's bytes, gunzipped when they are gzip, read synchronously into a buffer from
 * `buffers` (a gzip file's own buffer goes back at once). Filling a fresh buffer costs the
 * first-touch faults of its pages: 3 ms of the 36 ms a 2 MB demo match costs the library
 * path, measured on a VM (reusable-buffers.ts), against 0.3 ms to read it into a kept one.
 */
export function readKeptFile(file: string, buffers: ReusableBuffers): Buffer {
  const read = readWhole(file, buffers);
  const decoded = decode(read);
  if (decoded !== read) buffers.give(read);
  return decoded;
}

/**
 * A regular file's bytes in a buffer from `buffers`. A pipe or a device (`<(zcat …)`,
 * `/dev/stdin`), which tells no size, is read to its end from the one descriptor, into a
 * buffer of its own; a file whose size changed as it was read is read again whole.
 */
function readWhole(file: string, buffers: ReusableBuffers): Buffer {
  const fd = openSync(file, 'r');
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return readFileSync(fd);
    const bytes = buffers.take(stats.size);
    let filled = 0;
    while (filled < stats.size) {
      const read = readSync(fd, bytes, filled, stats.size - filled, filled);
      if (read === 0) break;
      filled += read;
    }
    if (filled === stats.size && readSync(fd, Buffer.alloc(1), 0, 1, filled) === 0) return bytes;
    buffers.give(bytes);
  } finally {
    closeSync(fd);
  }
  return readFileSync(file);
}

export async function readStream(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}
