import type pg from 'pg';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import {
  StoreUnavailableError,
  describeStoreError,
  isStoreUnavailable,
  type AvailabilityReporter,
} from '../store-errors.ts';

/**
 * True when a failed query leaves its connection unusable or suspect: the socket was cut, the
 * server shut the session down, or nothing came back in time. A statement timeout (57014) or
 * any other SQL error leaves the session healthy.
 */
function lostConnection(error: unknown): boolean {
  return isStoreUnavailable(error) && (error as { code?: unknown }).code !== '57014';
}

/**
 * Wraps a node-postgres pool for Kysely so that losing the database never takes the process
 * down and never leaves a broken connection in the pool:
 *
 * - every client gets an 'error' listener for its whole life. pg-pool only listens while a
 *   client is idle; a backend terminated under a query (failover, restart,
 *   `pg_terminate_backend`) makes the client emit 'error' too, and an EventEmitter without a
 *   listener throws it — an uncaught exception. The query itself already reports the failure.
 * - the pool's own 'error' (an idle client lost) is reported, not thrown.
 * - a failure to get a connection becomes a StoreUnavailableError, whatever the driver said
 *   (refused, timed out waiting for a free client, database not accepting connections …).
 * - a client whose query lost the connection is destroyed on release instead of going back.
 *
 * `availability` hears every failure and success, and logs the transitions.
 */
export function resilientPool(pool: pg.Pool, availability: AvailabilityReporter): PostgresPool {
  pool.on('error', (error) => availability.failed(error));
  pool.on('connect', (client) => {
    client.on('error', (error) => availability.failed(error));
  });

  return {
    async connect(): Promise<PostgresPoolClient> {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        availability.failed(error);
        throw new StoreUnavailableError(
          `No connection to PostgreSQL: ${describeStoreError(error)}`,
          {
            cause: error,
          },
        );
      }
      availability.succeeded();
      return checkedOut(client, availability);
    },
    end: () => pool.end(),
  };
}

/** One checkout of a client: remembers whether a query lost the connection, for the release. */
function checkedOut(client: pg.PoolClient, availability: AvailabilityReporter): PostgresPoolClient {
  let lost: Error | undefined;
  // Kysely sends SQL text and parameters only (no cursors: the store never streams).
  const query = async (text: string, parameters: readonly unknown[]) => {
    try {
      return await client.query(text, parameters as unknown[]);
    } catch (error) {
      if (lostConnection(error)) {
        lost = error instanceof Error ? error : new Error(String(error));
        availability.failed(error);
      }
      throw error;
    }
  };
  return {
    query: query as unknown as PostgresPoolClient['query'],
    // Passing an error makes pg-pool destroy the client rather than keep it idle.
    release: () => client.release(lost),
  };
}
