/** How upstream failures reach clients of this service. */
import { tooManyRequests, serviceUnavailable, type ApiError } from '../http/jsonapi.ts';
import { UpstreamBusyError, UpstreamUnavailableError } from './upstream-client.ts';

/**
 * The answer to a client when the upstream cannot give what the store lacks: 429 when the
 * upstream budget is spent, 503 when it is down — both with Retry-After. Null for other errors.
 */
export function upstreamApiError(error: unknown): ApiError | null {
  if (error instanceof UpstreamBusyError) {
    return tooManyRequests(Math.max(1, Math.ceil(error.retryAfterMs / 1000)));
  }
  if (error instanceof UpstreamUnavailableError) {
    return serviceUnavailable(
      'The upstream API is unavailable and this is not stored here; try again later',
      Math.max(1, Math.ceil(error.retryAfterMs / 1000)),
    );
  }
  return null;
}
