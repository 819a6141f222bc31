/**
 * A recorded match document served as recorded: the exact bytes that were ingested, with only
 * the links that must name this service rewritten in place — the document's `links.self`, the
 * match's `data.links.self` and the telemetry asset's `URL`. Nothing is parsed and serialized
 * back, so key order, whitespace, number spelling and the members of every era stay as they
 * were. While the match's telemetry file is not stored, the asset is cut out of `included` and
 * of the assets relationship instead, so no client is handed a URL that answers 404.
 */
import { applyEdits, findNodeAtLocation, parseTree, type Edit, type Node } from 'jsonc-parser';
import { matchUrl, type MatchDocumentVariant } from './match-document.ts';
import { telemetryUrl } from './telemetry-url.ts';

/** What the rewritten links say, from the stored match. Times are epoch ms. */
export interface RecordedMatchFacts {
  id: string;
  /** The match's canonical platform. */
  platform: string;
  assetId: string;
  assetCreatedAt: number;
  hasTelemetry: boolean;
}

/**
 * The recorded document (its JSON text, as ingested) for one variant. `recorded` must be valid
 * JSON; ingest checked that, and the members the rewrite needs, before storing it.
 */
export function renderRecordedMatchDocument(
  recorded: string,
  match: RecordedMatchFacts,
  variant: MatchDocumentVariant,
): string {
  const root = parseTree(recorded);
  if (root === undefined) return recorded;
  const edits: Edit[] = [];
  const replace = (node: Node | undefined, value: string): void => {
    if (node?.type === 'string') {
      edits.push({ offset: node.offset, length: node.length, content: JSON.stringify(value) });
    }
  };

  const self = matchUrl(variant, match.id);
  replace(findNodeAtLocation(root, ['links', 'self']), self);
  replace(findNodeAtLocation(root, ['data', 'links', 'self']), self);

  const isAsset = (node: Node): boolean =>
    findNodeAtLocation(node, ['type'])?.value === 'asset' &&
    findNodeAtLocation(node, ['id'])?.value === match.assetId;
  const included = findNodeAtLocation(root, ['included']);
  const assetIndex = included?.children?.findIndex(isAsset) ?? -1;
  if (match.hasTelemetry) {
    const asset = assetIndex >= 0 ? included!.children![assetIndex] : undefined;
    replace(
      asset && findNodeAtLocation(asset, ['attributes', 'URL']),
      telemetryUrl(variant.telemetryBaseUrl, match.platform, match.assetCreatedAt, match.assetId),
    );
  } else {
    if (assetIndex >= 0) edits.push(removal(included!, assetIndex));
    const refs = findNodeAtLocation(root, ['data', 'relationships', 'assets', 'data']);
    const refIndex = refs?.children?.findIndex(isAsset) ?? -1;
    if (refIndex >= 0) edits.push(removal(refs!, refIndex));
  }
  return applyEdits(recorded, edits);
}

/** The edit that removes one element of an array node with the comma that separates it. */
function removal(array: Node, index: number): Edit {
  const items = array.children!;
  const item = items[index]!;
  const end = item.offset + item.length;
  if (index > 0) {
    const previous = items[index - 1]!;
    const start = previous.offset + previous.length;
    return { offset: start, length: end - start, content: '' };
  }
  const next = items[1];
  return next === undefined
    ? { offset: item.offset, length: item.length, content: '' }
    : { offset: item.offset, length: next.offset - item.offset, content: '' };
}
