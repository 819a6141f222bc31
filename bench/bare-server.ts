/**
 * The benchmark's yardstick: a bare `node:http` server that answers fixed paths with fixed bytes
 * and headers, the least work any Node server can do per request. Run by `bench/run.ts` as a
 * child process: argv[2] is a JSON manifest `[{ path, headers, file }]`; it listens on an
 * ephemeral port of 127.0.0.1 and prints `listening <port>` once ready.
 */
import fs from 'node:fs';
import http from 'node:http';

interface Route {
  path: string;
  headers: Record<string, string>;
  file: string;
}

const manifest = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as Route[];
const routes = new Map(
  manifest.map((route) => {
    const body = fs.readFileSync(route.file);
    return [
      route.path,
      { headers: { ...route.headers, 'content-length': String(body.length) }, body },
    ];
  }),
);

const server = http.createServer((request, response) => {
  const route = routes.get(request.url ?? '');
  if (route === undefined) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, route.headers);
  response.end(route.body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
