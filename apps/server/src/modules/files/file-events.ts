import type { BytesReplacedListener, FoldersDeletedListener, FoldersTrashedListener } from './files.ports';
import type { ItemRow } from './files.tables';

/**
 * The files module's changes that other modules follow inside the change's unit of work. Those
 * modules are built from the files services, so they join here once they exist (services.ts), and
 * the files services hold this object rather than a closure naming a module not built yet.
 */
export class FileEvents implements BytesReplacedListener, FoldersDeletedListener, FoldersTrashedListener {
  private readonly replaced: BytesReplacedListener[] = [];
  private readonly deleted: FoldersDeletedListener[] = [];
  private readonly trashed: FoldersTrashedListener[] = [];

  onBytesReplaced(listener: BytesReplacedListener): void {
    this.replaced.push(listener);
  }

  onFoldersDeleted(listener: FoldersDeletedListener): void {
    this.deleted.push(listener);
  }

  onFoldersTrashed(listener: FoldersTrashedListener): void {
    this.trashed.push(listener);
  }

  async bytesReplaced(file: ItemRow): Promise<void> {
    for (const listener of this.replaced) await listener.bytesReplaced(file);
  }

  async foldersDeleted(ownerId: string, folderIds: readonly string[] | null): Promise<void> {
    for (const listener of this.deleted) await listener.foldersDeleted(ownerId, folderIds);
  }

  async foldersTrashed(ownerId: string, folderIds: readonly string[]): Promise<void> {
    for (const listener of this.trashed) await listener.foldersTrashed(ownerId, folderIds);
  }

  async foldersRestored(ownerId: string, folderIds: readonly string[]): Promise<void> {
    for (const listener of this.trashed) await listener.foldersRestored(ownerId, folderIds);
  }
}
