/**
 * Where a recorded document's top-level `links.self` value lies in its bytes, so that it can be
 * served as recorded with only that link rewritten to this service (found once at ingest; the
 * serving path only splices). jsonc-parser gives the node's offsets in the decoded text; the
 * range is returned in bytes of the UTF-8 encoding the document is stored in.
 */
import { findNodeAtLocation, parseTree } from 'jsonc-parser';

/**
 * The byte range [start, end) of the string value of the root object's `links.self`, quotes
 * included; null when the root is not an object or has no such string.
 */
export function selfLinkRange(bytes: Buffer): { start: number; end: number } | null {
  const text = bytes.toString('utf8');
  const root = parseTree(text);
  if (root?.type !== 'object') return null;
  const self = findNodeAtLocation(root, ['links', 'self']);
  if (self?.type !== 'string') return null;
  const start = Buffer.byteLength(text.slice(0, self.offset));
  return {
    start,
    end: start + Buffer.byteLength(text.slice(self.offset, self.offset + self.length)),
  };
}
