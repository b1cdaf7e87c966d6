import { join } from 'node:path';
import { LocalStorage } from './local.storage';
import { S3Storage, type S3StorageConfig } from './s3.storage';
import type { Storage } from './storage';

export type StorageConfig = { driver: 'local'; dataDir: string } | ({ driver: 's3' } & S3StorageConfig);

/** The driver named by STORAGE_DRIVER: local disk under DATA_DIR/storage, or an S3 bucket. */
export function createStorage(config: StorageConfig): Storage {
  switch (config.driver) {
    case 'local':
      return new LocalStorage(join(config.dataDir, 'storage'));
    case 's3':
      return new S3Storage(config);
  }
}
