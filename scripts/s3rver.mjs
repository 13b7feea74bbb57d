#!/usr/bin/env node
/**
 * A local S3-protocol server (the `s3rver` package) for tests and benchmarks, run as its own
 * process: `node scripts/s3rver.mjs <directory> [port] [bucket...]`. Prints one JSON line
 * `{"endpoint":"http://127.0.0.1:<port>"}` on stdout once listening; credentials S3RVER/S3RVER.
 * Objects and in-progress multipart uploads live under <directory>, so a test can check that
 * nothing is left behind.
 *
 * s3rver 3.7 lacks one S3 operation the AWS SDK's managed upload uses, AbortMultipartUpload
 * (`DELETE /<bucket>/<key>?uploadId=<id>`, answered 405 by s3rver); it is added here: the
 * upload's stored parts are removed and 204 is answered, as S3 does.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import S3rver from 's3rver';

const [directory, port = '0', ...buckets] = process.argv.slice(2);
if (!directory) {
  console.error('usage: node scripts/s3rver.mjs <directory> [port] [bucket...]');
  process.exit(2);
}
mkdirSync(directory, { recursive: true });
const server = new S3rver({
  address: '127.0.0.1',
  port: Number(port),
  directory,
  silent: true,
  configureBuckets: buckets.map((name) => ({ name })),
});
const uploadsDir = (bucket) => join(directory, bucket, '._S3rver_uploads');
// Before the router (the last middleware), so it sees the request first.
server.middleware.splice(server.middleware.length - 1, 0, async (ctx, next) => {
  const uploadId = ctx.query.uploadId;
  const [, bucket] = ctx.path.split('/');
  if (ctx.method !== 'DELETE' || typeof uploadId !== 'string' || !bucket || !/^[A-Za-z0-9._-]+$/.test(uploadId)) return next();
  const dir = join(uploadsDir(bucket), uploadId);
  rmSync(dir, { recursive: true, force: true });
  ctx.status = 204;
});
const addr = await server.run();
process.stdout.write(JSON.stringify({ endpoint: `http://127.0.0.1:${addr.port}` }) + '\n');
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
