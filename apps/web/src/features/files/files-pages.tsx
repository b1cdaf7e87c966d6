import { useParams } from 'react-router';
import { FileBrowser } from './file-browser';

/** /platform/files/:id? — the owner's folders. */
export function FilesPage() {
  const { id } = useParams();
  return <FileBrowser variant="files" folderId={id ?? null} />;
}

/** /platform/recent-uploads — the latest files, newest first. */
export function RecentUploadsPage() {
  return <FileBrowser variant="latest" folderId={null} />;
}

/** /platform/favourites — the items the owner starred, in the order they were starred. */
export function FavouritesPage() {
  return <FileBrowser variant="favourites" folderId={null} />;
}

/** /platform/trash/:id? — deleted items, restorable until the trash is emptied. */
export function TrashPage() {
  const { id } = useParams();
  return <FileBrowser variant="trash" folderId={id ?? null} />;
}
