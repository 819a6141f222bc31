/**
 * Closing the listening app without dropping answers: the graceful half of SIGTERM. Fastify's
 * `close()` stops accepting and waits for every connection to end, but on its own a keep-alive
 * client that is mid-request is answered `Connection: keep-alive` and then holds the process
 * open, and so does a client reading a large response slowly. This adds what is missing.
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** How often connections that finished their response are looked for and closed while draining. */
const IDLE_SWEEP_MS = 50;

export interface ServerDrain {
  /**
   * Stops accepting connections; answers the requests in flight, each with `Connection: close`
   * when its headers are not sent yet; closes keep-alive connections as soon as they are idle;
   * and after `withinMs` destroys whatever is still open (a slow reader or a slow sender must
   * not hold the process). Resolves when the app is closed, with the number of connections cut.
   */
  close(withinMs: number): Promise<{ destroyed: number }>;
}

/** Starts tracking the app's connections (one Set entry per connection, nothing per request). */
export function drainableServer(app: FastifyInstance): ServerDrain {
  const sockets = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  return {
    async close(withinMs) {
      for (const socket of sockets) {
        // The response a socket is busy with: the property Node's own closeIdleConnections reads.
        const response = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
        if (response && !response.headersSent) response.setHeader('connection', 'close');
      }
      const closed = app.close();
      const sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
      let destroyed = 0;
      const cutOff = setTimeout(() => {
        destroyed = sockets.size;
        // Every connection, Node's and those the fast path still answers on itself
        // (src/http/raw-connections.ts), which Node's closeAllConnections does not know.
        for (const socket of sockets) socket.destroy();
      }, withinMs);
      try {
        await closed;
      } finally {
        clearInterval(sweep);
        clearTimeout(cutOff);
      }
      return { destroyed };
    },
  };
}
