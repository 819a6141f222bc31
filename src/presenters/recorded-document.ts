/**
 * A recorded document of the real service as served: its bytes as recorded, with only the
 * top-level `links.self` value replaced by this service's URL of the request. A recording that
 * had no `links.self` is served as it was.
 */

export function renderRecordedDocument(
  recording: { body: Buffer; self: { start: number; end: number } | null },
  selfUrl: string,
): Buffer {
  const { body, self } = recording;
  if (self === null) return body;
  return Buffer.concat([
    body.subarray(0, self.start),
    Buffer.from(JSON.stringify(selfUrl)),
    body.subarray(self.end),
  ]);
}
