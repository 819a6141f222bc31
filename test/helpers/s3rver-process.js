// A real S3 API server (s3rver) in a process of its own, so that tests can kill it (kill -9),
// freeze it (SIGSTOP) and start it again on the same port and directory. Arguments: port (0 for
// any free one), data directory, bucket names to create. Prints the bound port on one line.
import process from 'node:process';
import S3rver from 's3rver';

const [port = '0', directory, ...buckets] = process.argv.slice(2);
const server = new S3rver({
  address: '127.0.0.1',
  port: Number(port),
  silent: true,
  directory,
  configureBuckets: buckets.map((name) => ({ name, configs: [] })),
});
const address = await server.run();
process.stdout.write(`${address.port}\n`);
