import type { FileSource } from '../files/file-source';
import { createTokenSource, type AccessLoss } from '../files/token-source';
import { uploadRequestsKeys } from './upload-requests-api';

/**
 * What an upload request received, as a file source: the outsider uploads, makes folders, renames,
 * moves and deletes through `/api/file-request/{token}/…`, and only within what they sent. Nothing
 * can be read back (no previews, downloads, zips or thumbnails): the folder is the owner's.
 */
export function createUploadRequestSource({
  token,
  rootId,
  onAccessLost,
}: {
  token: string;
  /** The request's folder: the top of the page. */
  rootId: string;
  onAccessLost: (status: AccessLoss) => void;
}): FileSource {
  const base = `/api/file-request/${encodeURIComponent(token)}`;
  return createTokenSource({
    kind: 'upload-request',
    writable: true,
    scope: uploadRequestsKeys.visit(token),
    paths: {
      listing: (folder) => `${base}/browse/${folder}`,
      navigation: `${base}/navigation`,
      createFolder: `${base}/create-folder`,
      rename: (id) => `${base}/rename/${id}`,
      move: `${base}/move`,
      remove: `${base}/remove`,
      upload: `${base}/upload/chunks`,
    },
    rootId,
    bytes: null,
    folderPath: (id) => `/request/${token}/upload${id ? `/${id}` : ''}`,
    onAccessLost,
  });
}
