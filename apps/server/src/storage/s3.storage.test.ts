import { describe, expect, it } from 'vitest';
import { s3ConfigFromEnv } from './s3.storage.ts';
import { createStorage } from './storage.factory.ts';
import { tempDirPerTest } from './testing/temp-dir.ts';

// The S3 store itself is tested against a real S3-protocol server process in s3.storage.int.test.ts.
const dir = tempDirPerTest('rl-s3cfg-');

describe('S3 configuration', () => {
  it('lists every missing variable in one readable error', () => {
    expect(() => s3ConfigFromEnv({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(
      /S3_BUCKET is not set; S3_ACCESS_KEY_ID is not set; S3_SECRET_ACCESS_KEY is not set/,
    );
    expect(() => createStorage({ dataDir: dir(), s3Endpoint: 'ftp://x', env: { S3_BUCKET: 'Bad_Bucket' } })).toThrow(
      /S3_ENDPOINT must be an http\(s\) URL.*S3_BUCKET "Bad_Bucket" is not a valid bucket name/,
    );
  });

  it('defaults the region, trims the prefix, and builds an S3 store from the factory', () => {
    const env = { S3_ENDPOINT: 'http://minio:9000/', S3_BUCKET: 'b-1', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's', S3_PREFIX: '/up/' };
    expect(s3ConfigFromEnv(env)).toEqual({
      endpoint: 'http://minio:9000',
      bucket: 'b-1',
      region: 'us-east-1',
      accessKeyId: 'k',
      secretAccessKey: 's',
      prefix: 'up',
      partSize: 8 * 1024 * 1024,
      queueSize: 4,
    });
    expect(s3ConfigFromEnv({ ...env, S3_PART_SIZE_MB: '16', S3_UPLOAD_CONCURRENCY: '8' })).toMatchObject({
      partSize: 16 * 1024 * 1024,
      queueSize: 8,
    });
    expect(() => s3ConfigFromEnv({ ...env, S3_PART_SIZE_MB: '4', S3_UPLOAD_CONCURRENCY: '0' })).toThrow(
      /S3_PART_SIZE_MB must be a whole number of MiB from 5 to 5120, got "4"; S3_UPLOAD_CONCURRENCY must be a whole number from 1 to 64, got "0"/,
    );
    expect(createStorage({ dataDir: dir(), s3Endpoint: env.S3_ENDPOINT, env }).kind).toBe('s3');
    expect(createStorage({ dataDir: dir() }).kind).toBe('local');
  });
});
