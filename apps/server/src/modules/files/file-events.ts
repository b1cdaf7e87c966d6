import type { BytesReplacedListener, FoldersDeletedListener } from './files.ports';
import type { ItemRow } from './files.tables';

/**
 * The files module's changes that other modules follow inside the change's unit of work. Those
 * modules are built from the files services, so they join here once they exist (services.ts), and
 * the files services hold this object rather than a closure naming a module not built yet.
 */
export class FileEvents implements BytesReplacedListener, FoldersDeletedListener {
  private readonly replaced: BytesReplacedListener[] = [];
  private readonly deleted: FoldersDeletedListener[] = [];

  onBytesReplaced(listener: BytesReplacedListener): void {
    this.replaced.push(listener);
  }

  onFoldersDeleted(listener: FoldersDeletedListener): void {
    this.deleted.push(listener);
  }

  async bytesReplaced(file: ItemRow): Promise<void> {
    for (const listener of this.replaced) await listener.bytesReplaced(file);
  }

  async foldersDeleted(ownerId: string, folderIds: readonly string[] | null): Promise<void> {
    for (const listener of this.deleted) await listener.foldersDeleted(ownerId, folderIds);
  }
}
