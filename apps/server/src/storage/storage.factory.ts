import { join } from 'node:path';
import { LocalStorage } from './local.storage.ts';
import type { ObjectStorage } from './object-storage.ts';

export interface StorageConfig {
  /** RARELENS_DATA_DIR: uploads go to `<dataDir>/uploads`. */
  dataDir: string;
  /** S3_ENDPOINT / S3_BUCKET ...: when set, an S3-compatible store is requested. */
  s3Endpoint?: string | undefined;
}

/**
 * The configured object storage. S3-compatible storage is not implemented yet (issue 5 note):
 * asking for it fails at boot with a clear message instead of silently writing to local disk.
 */
export function createStorage(config: StorageConfig): ObjectStorage {
  if (config.s3Endpoint) {
    throw new Error(
      'S3_ENDPOINT is set, but S3-compatible upload storage is not implemented yet; unset the S3_* variables to store uploads under RARELENS_DATA_DIR/uploads',
    );
  }
  return new LocalStorage(join(config.dataDir, 'uploads'));
}
