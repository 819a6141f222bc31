/**
 * The fast path's answers written on the connection itself. Node's HTTP server parses every
 * request into an IncomingMessage and answers through a ServerResponse; for a cached document
 * that machinery costs more than the answer, and in a process that also runs Fastify, file and
 * zlib streams it costs more still (README "Why the match, `/status` and `/healthz` fall short").
 * So the server's connections come here first: a chunk holding complete plain GETs
 * (src/http/raw-get.ts) the fast path can answer is answered with bytes written to the socket;
 * at the first request it cannot — another method, a miss, anything odd, a request not complete
 * in the chunk — the connection is handed to Node's own connection handler for good, the bytes
 * not answered yet put back in front of what it reads next. From then on it is an ordinary
 * Node connection, whose requests the fast path still sees through `request` events.
 *
 * A connection kept here behaves as Node's would: idle for the server's keep-alive timeout after
 * an answer, it is closed; silent for 5 s before its first request, it is handed over, and
 * Node's timeouts for a request that does not come apply; a client that half-closes it gets
 * its answers and then the end; it stops reading while its answers wait for a slow reader;
 * once the app is closing, and as soon as nothing it was sent is still queued, it is closed as
 * Node closes an idle keep-alive connection, or handed over if it had no request yet, so that
 * closing (src/http/drain-server.ts) finds only Node's connections.
 */
import type http from 'node:http';
import type { Socket } from 'node:net';

/**
 * Answers the request whose first byte is at `at` in `chunk` on `socket`, and returns the
 * offset after it; or returns -1 without writing anything, when it does not answer that request.
 * An answer that waits for something (a rate-limit count in Redis) is a promise of the same,
 * settled once the answer is written; the connection reads nothing more meanwhile.
 */
export type AnswerAt = (chunk: Buffer, at: number, socket: Socket) => number | Promise<number>;

/** The most requests of one chunk answered here; the rest of a longer pipeline goes to Node. */
export const MAX_PIPELINED = 32;

export interface RawConnections {
  /** Answers on connections (new ones and those kept) with `answerAt`. */
  enable(answerAt: AnswerAt): void;
  /** Ends answering: kept connections close or go to Node (see release); new ones go to Node. */
  disable(): void;
}

/**
 * Takes over `server`'s connections: its own connection handler (Node's, which http.Server
 * registers first) now runs only for the connections handed over. Other `connection` listeners
 * still see every connection.
 */
export function takeConnections(server: http.Server, keepAliveMs: number): RawConnections {
  const [nodeHandler] = server.listeners('connection') as Array<(socket: Socket) => void>;
  if (nodeHandler === undefined) throw new Error('the HTTP server has no connection handler');
  server.removeListener('connection', nodeHandler);
  const kept = new Set<KeptConnection>();
  let answerAt: AnswerAt | null = null;

  const handOver = (socket: Socket, rest: Buffer | null): void => {
    nodeHandler.call(server, socket);
    // With Node's data listener in place, the bytes put back reach its parser at once, before
    // anything read later.
    if (rest !== null && rest.length > 0) socket.unshift(rest);
  };

  server.prependListener('connection', (socket: Socket) => {
    if (answerAt === null) nodeHandler.call(server, socket);
    else kept.add(new KeptConnection(socket, keepAliveMs, answerAt, kept, handOver));
  });

  return {
    enable(given) {
      answerAt = given;
      for (const connection of kept) connection.answerAt = given;
    },
    disable() {
      answerAt = null;
      for (const connection of kept) connection.release();
    },
  };
}

/** One connection answered here until it is handed to Node. */
class KeptConnection {
  /** Requests answered so far: an idle connection that had some is closed, not handed over. */
  private answered = 0;
  private releasing = false;
  /** An answer of the chunk being read is waiting for something (see AnswerAt). */
  private waiting = false;
  /** The idle timeout is the keep-alive one (after a first answer). */
  private keptAlive = false;
  /** The client has sent all it will (a half-close): end once the answers are written. */
  private clientDone = false;
  private readonly onData = (chunk: Buffer): void => this.read(chunk);
  private readonly onIdle = (): void => this.idle();
  private readonly onDrain = (): void => this.drained();
  private readonly onError = (): void => this.failed();
  private readonly onEnd = (): void => this.ended();
  private readonly onClose = (): void => {
    this.kept.delete(this);
  };

  constructor(
    private readonly socket: Socket,
    private readonly keepAliveMs: number,
    public answerAt: AnswerAt,
    private readonly kept: Set<KeptConnection>,
    private readonly handOver: (socket: Socket, rest: Buffer | null) => void,
  ) {
    socket.on('data', this.onData);
    socket.on('error', this.onError);
    socket.on('close', this.onClose);
    socket.on('timeout', this.onIdle);
    socket.on('end', this.onEnd);
    // A connection silent from the start goes to Node soon, whose request timeouts then run.
    // (A keep-alive timeout of 0 keeps idle connections open for good, as in Node.)
    socket.setTimeout(keepAliveMs > 0 ? Math.min(keepAliveMs, FIRST_REQUEST_MS) : FIRST_REQUEST_MS);
  }

  /**
   * The app is closing: once nothing queued on the connection is left, it is closed if it had
   * answers — Node's close ends idle keep-alive connections at once — or handed to Node if not,
   * which waits for a first request as it does on its own connections.
   */
  release(): void {
    this.releasing = true;
    // A waiting answer comes back here once written (answerFrom).
    if (this.waiting) return;
    if (this.socket.writableLength === 0) return this.released();
    this.socket.pause();
    // The callback of a write runs once everything queued before it is sent.
    this.socket.write(NOTHING, this.onDrain);
  }

  private released(): void {
    if (this.answered === 0) return this.handOff(null);
    this.kept.delete(this);
    this.socket.destroy();
  }

  private read(chunk: Buffer): void {
    if (this.releasing) return this.handOff(chunk);
    this.answerFrom(chunk, 0, 0);
  }

  /** Answers the requests of `chunk` from `at` on, `n` of them answered already. */
  private answerFrom(chunk: Buffer, at: number, n: number): void {
    const socket = this.socket;
    socket.cork();
    // Once the app is closing, what is left of the chunk is Node's.
    for (; n < MAX_PIPELINED && at < chunk.length && !this.releasing; n++) {
      const next = this.answerSafely(chunk, at);
      if (next === BROKEN) return;
      if (typeof next !== 'number') {
        socket.uncork();
        return this.wait(next, chunk, at, n);
      }
      if (next < 0) break;
      at = next;
      this.answered++;
    }
    socket.uncork();
    if (at < chunk.length) return this.handOff(chunk.subarray(at));
    if (!this.keptAlive) {
      this.keptAlive = true;
      socket.setTimeout(this.keepAliveMs);
    }
    if (this.clientDone) return void socket.end();
    if (this.releasing) return this.release();
    if (socket.writableNeedDrain) {
      // Read nothing more until the client has taken what it asked for.
      socket.pause();
      socket.once('drain', this.onDrain);
    } else if (socket.isPaused()) {
      socket.resume();
    }
  }

  /**
   * `answerAt`, which must not throw; if it does all the same, the request goes to Node (whose
   * route answers a 500 that names nothing internal) when nothing of its answer was written, and
   * the connection is cut when some was: a fault in an answer must not end the process.
   */
  private answerSafely(chunk: Buffer, at: number): number | Promise<number> | typeof BROKEN {
    const socket = this.socket;
    const queued = socket.writableLength;
    try {
      return this.answerAt(chunk, at, socket);
    } catch {
      if (socket.writableLength === queued) return -1;
      this.kept.delete(this);
      socket.destroy();
      return BROKEN;
    }
  }

  /** Reads nothing more until the answer at `at` is written (or not), then goes on from there. */
  private wait(answer: Promise<number>, chunk: Buffer, at: number, n: number): void {
    this.waiting = true;
    this.socket.pause();
    const settled = (next: number): void => {
      this.waiting = false;
      if (!this.kept.has(this) || this.socket.destroyed) return;
      if (next < 0) return this.handOff(chunk.subarray(at));
      this.answered++;
      this.answerFrom(chunk, next, n + 1);
    };
    answer.then(settled, () => settled(-1));
  }

  private drained(): void {
    if (this.waiting || !this.kept.has(this) || this.socket.destroyed) return;
    if (this.releasing) this.released();
    else this.socket.resume();
  }

  private idle(): void {
    if (this.waiting) return;
    // Node closes a keep-alive connection idle this long after an answer; before any request,
    // its own timeouts for a request that does not come apply.
    if (this.answered > 0) this.socket.destroy();
    else this.handOff(null);
  }

  private failed(): void {
    this.socket.destroy();
  }

  private ended(): void {
    // As Node does: a client that half-closes gets the answers it asked for, then the end.
    this.clientDone = true;
    if (!this.waiting) this.socket.end();
  }

  private handOff(rest: Buffer | null): void {
    const socket = this.socket;
    this.kept.delete(this);
    socket.removeListener('data', this.onData);
    socket.removeListener('error', this.onError);
    socket.removeListener('close', this.onClose);
    socket.removeListener('timeout', this.onIdle);
    socket.removeListener('end', this.onEnd);
    socket.removeListener('drain', this.onDrain);
    socket.setTimeout(0);
    this.handOver(socket, rest);
    if (socket.isPaused()) socket.resume();
  }
}

const NOTHING = Buffer.alloc(0);

/** What answerSafely returns when it cut the connection. */
const BROKEN = Symbol('broken');

/** How long a new connection may stay silent before it is handed to Node (ms). */
const FIRST_REQUEST_MS = 5_000;
