import type { UploadSource } from '../../lib/upload-queue';

/** True while the drag carries files from the desktop (not items dragged inside the page). */
export function carriesDesktopFiles(dataTransfer: DataTransfer | null): boolean {
  return !!dataTransfer && Array.from(dataTransfer.types).includes('Files');
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

// readEntries answers in batches (100 in Chromium); an empty batch means the folder is done.
async function childrenOf(directory: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = directory.createReader();
  const children: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (batch.length === 0) return children;
    children.push(...batch);
  }
}

async function collect(entry: FileSystemEntry, insideFolder: boolean, into: UploadSource[]) {
  if (entry.isFile) {
    const file = await fileOf(entry as FileSystemFileEntry);
    // fullPath is "/Folder/Sub/name.ext": the form the chunk endpoint expects for folder uploads.
    into.push(insideFolder ? { file, path: entry.fullPath } : { file });
    return;
  }
  if (entry.isDirectory) {
    for (const child of await childrenOf(entry as FileSystemDirectoryEntry)) await collect(child, true, into);
  }
}

/**
 * The files of a desktop drop, whole folders included. Entries must be taken synchronously inside
 * the drop event; the traversal itself is asynchronous.
 */
export function filesFromDrop(dataTransfer: DataTransfer): Promise<UploadSource[]> {
  const entries = Array.from(dataTransfer.items)
    .filter((item) => item.kind === 'file')
    .map((item) => item.webkitGetAsEntry?.() ?? null);
  if (entries.length === 0 || entries.some((entry) => entry === null)) {
    return Promise.resolve(Array.from(dataTransfer.files, (file) => ({ file })));
  }
  return (async () => {
    const sources: UploadSource[] = [];
    for (const entry of entries) if (entry) await collect(entry, false, sources);
    return sources;
  })();
}

/** Files picked with a folder input carry "Folder/Sub/name.ext" as their relative path. */
export function filesFromFolderInput(files: FileList): UploadSource[] {
  return Array.from(files, (file) =>
    file.webkitRelativePath ? { file, path: `/${file.webkitRelativePath}` } : { file },
  );
}
