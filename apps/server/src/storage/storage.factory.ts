import { join } from 'node:path';
import { LocalStorage } from './local.storage.ts';
import type { ObjectStorage } from './object-storage.ts';
import { s3ConfigFromEnv, S3Storage } from './s3.storage.ts';

export interface StorageConfig {
  /** RARELENS_DATA_DIR: uploads go to `<dataDir>/uploads` (local) or are staged in `<dataDir>/tmp/s3` (S3). */
  dataDir: string;
  /** S3_ENDPOINT: when set, uploads go to an S3-compatible store configured by the S3_* variables. */
  s3Endpoint?: string | undefined;
  /** Where the other S3_* settings are read from (default process.env). */
  env?: NodeJS.ProcessEnv;
}

/**
 * The configured object storage: local files under the data directory, or an S3-compatible
 * bucket when S3_ENDPOINT is set. Incomplete S3 settings fail at boot with a message naming
 * every missing variable, instead of silently writing to local disk.
 */
export function createStorage(config: StorageConfig): ObjectStorage {
  if (config.s3Endpoint?.trim()) {
    const s3 = s3ConfigFromEnv({ ...(config.env ?? process.env), S3_ENDPOINT: config.s3Endpoint });
    return new S3Storage(s3, join(config.dataDir, 'tmp', 's3'));
  }
  return new LocalStorage(join(config.dataDir, 'uploads'));
}
