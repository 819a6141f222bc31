/**
 * Which answer wins when the store holds both a recorded document of the real service (ranked
 * stats, a clan) and data derived from ingest for the same resource: the newer one.
 *
 * A recording is what the real service said at `recordedAt`; it already reflects every match
 * played before then. So it is served until something newer is derived for the resource:
 * - ranked stats: a ranked match of that player, platform and season *played* after the
 *   recording (createdAt > recordedAt). Older matches ingested later do not displace it — the
 *   recording already counted them.
 * - a clan: a clan input, a member change or a player status that moved a member, *ingested*
 *   after the recording (the clan has no play time, so its last change stands in).
 * Equal instants go to the recording: it is the source the data was copied from.
 */

/**
 * True when the recording is served. `derivedAt` is the instant of the newest derived change
 * (epoch ms), or null when nothing is derived for the resource.
 */
export function recordingWins(recordedAt: number, derivedAt: number | null): boolean {
  return derivedAt === null || recordedAt >= derivedAt;
}
