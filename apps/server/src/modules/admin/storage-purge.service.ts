import type { StorageProvider } from '../../storage/storage-provider';
import type { AdminUsersRepository } from './admin-users.repository';

const BATCH = 500;

/** Deletes the storage objects a deletion left in `storage_purges`, batch by batch. */
export class StoragePurgeService {
  constructor(
    private readonly accounts: AdminUsersRepository,
    private readonly storage: StorageProvider,
  ) {}

  /** Safe to run again after a failure: deleting a missing object is not an error. */
  async run(purgeId: string, signal?: AbortSignal): Promise<void> {
    const storage = await this.storage.current();
    for (;;) {
      signal?.throwIfAborted();
      const batch = await this.accounts.purgeBatch(purgeId, BATCH);
      if (batch.length === 0) return;
      await storage.deleteMany(batch.filter((row) => row.kind === 'object').map((row) => row.key));
      for (const row of batch.filter((row) => row.kind === 'parts'))
        await storage.abortParts(row.key, row.part_count);
      await this.accounts.forgetPurged(purgeId, batch);
    }
  }
}
