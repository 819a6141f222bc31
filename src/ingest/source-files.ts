/**
 * Reading the files `gamedata ingest` is given: gzip or plain bytes, standard input, the exact
 * text of each item of a JSON array, and the telemetry file beside a match file.
 */
import fs from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { parseTree } from 'jsonc-parser';

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

export async function readStream(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}
