/**
 * Errors raised before a request reaches a route — by Node's HTTP parser, by the router, or for
 * requests no route takes — answered like every other error: a JSON:API error document with the
 * right status, never Fastify's `{"error","message","statusCode"}`, never an empty or HTML body,
 * never the request URL echoed back.
 */
import http from 'node:http';
import type { Duplex } from 'node:stream';
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifyHttpOptions,
  onRequestHookHandler,
} from 'fastify';
import { negotiateMediaType } from './content-negotiation.ts';
import {
  ApiError,
  MEDIA_TYPES,
  badRequest,
  errorDocument,
  notFound,
  sendError,
} from './jsonapi.ts';

/** Methods a route may answer, probed to tell a 405 (the path exists) from a 404. */
const ROUTABLE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Longest path a 404 quotes back, in characters. */
const MAX_QUOTED_PATH = 100;

/** A request line longer than this, in bytes, makes a header overflow a 414 rather than a 431. */
const LONG_REQUEST_LINE = 8 * 1024;

const apiError = (status: number, detail: string, headers = {}): ApiError =>
  new ApiError(status, http.STATUS_CODES[status] ?? 'Error', detail, headers);

/** Status and detail of each parser error worth naming; anything else is a plain 400. */
const PARSER_ERRORS: Readonly<Record<string, readonly [number, string]>> = {
  HPE_INVALID_METHOD: [501, 'The request method is not one this service implements'],
  HPE_INVALID_VERSION: [505, 'Only HTTP/1.0 and HTTP/1.1 are served'],
  HPE_INVALID_URL: [400, 'The request target is not a valid URL path'],
  HPE_INVALID_HEADER_TOKEN: [400, 'A header name or value holds characters HTTP does not allow'],
  HPE_UNEXPECTED_CONTENT_LENGTH: [400, 'Content-Length and Transfer-Encoding cannot both be sent'],
  HPE_INVALID_CONTENT_LENGTH: [400, 'Content-Length is not a valid length'],
  HPE_INVALID_TRANSFER_ENCODING: [400, 'Transfer-Encoding is invalid or sent with Content-Length'],
  HPE_INVALID_CHUNK_SIZE: [400, 'The chunked request body is malformed'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request was not received in time'],
};

/** The status and detail a parser error is answered with. */
function parserError(error: Error & { code?: string; rawPacket?: Buffer }): ApiError {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    const packet = error.rawPacket;
    const lineEnd = packet === undefined ? -1 : packet.indexOf('\r\n');
    if (packet !== undefined && (lineEnd === -1 || lineEnd > LONG_REQUEST_LINE)) {
      return apiError(414, `The request line exceeds ${http.maxHeaderSize} bytes`);
    }
    return apiError(431, `The request headers exceed ${http.maxHeaderSize} bytes`);
  }
  const [status, detail] = PARSER_ERRORS[error.code ?? ''] ?? [
    400,
    'The request is not valid HTTP',
  ];
  return apiError(status, detail);
}

/** A whole HTTP/1.1 response carrying an error document, for answers written to the socket. */
function rawErrorResponse(error: ApiError): string {
  const body = errorDocument(error);
  return (
    `HTTP/1.1 ${error.status} ${error.title}\r\n` +
    `Content-Type: ${MEDIA_TYPES[0]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
    `Connection: close\r\n\r\n${body}`
  );
}

/**
 * Requests Node's HTTP parser refuses (malformed request lines and headers, unknown methods,
 * headers over `--max-http-header-size`, 16 KB by default): the error document is written to the
 * socket, which closes once it is flushed.
 */
function clientErrorHandler(
  this: FastifyInstance,
  error: Error & { code?: string },
  socket: Duplex,
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // A response already under way on this socket (a request answered before its malformed body
  // was read, as Node's own handler checks) cannot be followed by another: just close.
  const current = (socket as Duplex & { _httpMessage?: http.ServerResponse | null })._httpMessage;
  if (!socket.writable || current?.headersSent === true) {
    socket.destroy();
    return;
  }
  const refusal = parserError(error);
  // No route, method or timing exists for these: the metrics count them apart, by status.
  this.metrics?.parserRefusals.inc({ status: String(refusal.status) });
  socket.end(rawErrorResponse(refusal), () => socket.destroy());
}

/** Errors Fastify's router raises before a route is chosen; the URL is never echoed back. */
function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  request.negotiatedType = negotiateMediaType(request) ?? MEDIA_TYPES[0];
  if (error.code === 'FST_ERR_BAD_URL') {
    sendError(request, reply, badRequest('The request path holds a malformed %-encoding'));
  } else if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    sendError(request, reply, badRequest('A path segment is longer than any identifier served'));
  } else {
    request.log.error({ err: error }, 'router failed');
    sendError(request, reply, apiError(500, 'The server could not answer this request'));
  }
}

/**
 * Fastify options for the errors raised outside routes. The Host check moves from Node (which
 * answers a bare 400 with no body) to `registerFrameworkErrors`.
 */
export const FRAMEWORK_ERROR_OPTIONS = {
  frameworkErrors,
  clientErrorHandler,
  http: { requireHostHeader: false },
} satisfies FastifyHttpOptions<http.Server>;

/**
 * The answer to a request no route takes: 405 with `Allow` when the path exists for other
 * methods (a POST to a GET route), 404 otherwise. Decided before any body is read.
 */
export function unroutedRequestError(app: FastifyInstance, request: FastifyRequest): ApiError {
  const path = request.url.split('?', 1)[0]!;
  const allowed = ROUTABLE_METHODS.filter(
    (method) => method !== request.method && app.findRoute({ method, url: path }) !== null,
  );
  if (allowed.length === 0) {
    // Quoted only when short: a long path is the client's own input, not worth sending back.
    const quoted = path.length <= MAX_QUOTED_PATH ? ` ${path}` : ' this path';
    return notFound(`No resource at ${request.method}${quoted}`);
  }
  return apiError(405, `${request.method} is not allowed here; use ${allowed.join(', ')}`, {
    allow: [...allowed, 'OPTIONS'].join(', '),
  });
}

/** True for a GET or HEAD that carries a body, which no route reads. */
function hasUnwantedBody(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const length = request.headers['content-length'];
  return (
    (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined
  );
}

/**
 * The checks every request passes before its route runs: an HTTP/1.1 request names its Host
 * (400, RFC 9112 §3.2), a GET carries no body (400), and some route takes it (404/405, answered
 * before a body is parsed). Also answers `Expect` values other than 100-continue (417) and
 * CONNECT (501), which Node would answer with an empty body or not at all.
 */
export function registerFrameworkErrors(app: FastifyInstance): void {
  const refuse = (request: FastifyRequest, reply: FastifyReply, error: ApiError): void => {
    request.negotiatedType = negotiateMediaType(request) ?? MEDIA_TYPES[0];
    sendError(request, reply, error);
  };
  const screen: onRequestHookHandler = (request, reply, done) => {
    if (request.headers.host === undefined && request.raw.httpVersion === '1.1') {
      return refuse(request, reply, badRequest('An HTTP/1.1 request must send a Host header'));
    }
    if (hasUnwantedBody(request)) {
      return refuse(request, reply, badRequest(`A ${request.method} request carries no body`));
    }
    if (request.is404) return refuse(request, reply, unroutedRequestError(app, request));
    done();
  };
  app.addHook('onRequest', screen);

  // Node closes a CONNECT's socket without a word when nothing listens for it.
  app.server.on('connect', (_request: http.IncomingMessage, socket: Duplex) => {
    socket.end(rawErrorResponse(apiError(501, 'This service is not a proxy')), () =>
      socket.destroy(),
    );
  });
  app.server.on(
    'checkExpectation',
    (_request: http.IncomingMessage, response: http.ServerResponse) => {
      const body = errorDocument(apiError(417, 'Only "Expect: 100-continue" is understood'));
      response.writeHead(417, {
        'content-type': MEDIA_TYPES[0],
        'content-length': Buffer.byteLength(body),
      });
      response.end(body);
    },
  );
}
