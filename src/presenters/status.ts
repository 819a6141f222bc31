import { SERVICE_VERSION } from '../version.ts';

/** When this process started: the release the status document reports. */
const RELEASED_AT = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The status document: `type` status, `id` pubg-api, with the version clients read. */
export function renderStatus(): string {
  return JSON.stringify({
    data: {
      type: 'status',
      id: 'pubg-api',
      attributes: { releasedAt: RELEASED_AT, version: `v${SERVICE_VERSION}` },
    },
  });
}
