/**
 * The benchmark's yardstick: a bare `node:http` server answering each path with the status,
 * headers and bytes the service answered for it (captured by `capture.ts`), the least work any
 * Node server can do per request. Run by the bench as a child process, pinned like the service:
 * argv[2] is the manifest written by `writeBareManifest`; it listens on an ephemeral port of
 * 127.0.0.1 and prints `listening <port>` once ready. Anything not in the manifest is a 404.
 */
import http from 'node:http';
import { readBareManifest } from './capture.ts';

const responses = readBareManifest(process.argv[2]!);

const server = http.createServer((request, response) => {
  const captured = responses.get(request.url ?? '');
  if (captured === undefined) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(captured.status, captured.headers);
  response.end(captured.body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
