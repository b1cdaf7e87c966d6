import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { sendDownload } from '../files/file-response';
import type { PreviewTarget } from './dav-previews.service';
import { DavRefusal } from './webdav.refusals';
import { davScope } from './webdav.scope';

/** A side the clients ask for (Nextcloud answers up to its largest preview); none means its default, 32. */
const MAX_SIDE = 4096;
const DEFAULT_SIDE = 32;

/**
 * Nextcloud's previews, as its apps ask for them beside a listing: `/index.php/core/preview?fileId=…`
 * and `/index.php/core/preview.png?file=/path` with the box `x`×`y`; signed in as WebDAV is (Basic
 * with an app password).
 */
export const davPreviewsRoutes: FastifyPluginAsync = async (app) => {
  const { davPreviews } = app.deps;
  const signedIn = davScope(app);

  for (const url of ['/index.php/core/preview', '/index.php/core/preview.png'])
    app.get(url, { schema: { hide: true } }, async (request, reply) => {
      const { target, side } = previewQuery(request);
      return sendDownload(request, reply, await davPreviews.preview(signedIn(request), target, side), {
        attachment: false,
        cacheControl: 'private, max-age=86400',
      });
    });
};

/** The file and the box of the query; malformed (400) for a missing file or a box that is no size. */
function previewQuery(request: FastifyRequest): { target: PreviewTarget; side: number } {
  const query = request.query as Record<string, unknown>;
  const text = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : undefined);
  const dimension = (name: string) => {
    const value = text(name);
    if (value === undefined || value === '') return DEFAULT_SIDE;
    if (!/^\d{1,5}$/.test(value) || Number(value) < 1 || Number(value) > MAX_SIDE)
      throw new DavRefusal('malformed');
    return Number(value);
  };
  const side = Math.max(dimension('x'), dimension('y'));
  const fileId = text('fileId');
  const path = text('file');
  if (fileId) return { target: { fileId }, side };
  if (path) return { target: { path }, side };
  throw new DavRefusal('malformed');
}
