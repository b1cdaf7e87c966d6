import type { FastifyPluginAsync, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { Download } from '../files/download.service';
import { sendDownload } from '../files/file-response';
import type { DavResource } from './webdav.presenter';
import { DavRefusal } from './webdav.refusals';
import { sendPropfind } from './webdav.routes';
import { davScope } from './webdav.scope';
import { decodeSegments } from './webdav.service';

export const TRASHBIN_PREFIX = '/remote.php/dav/trashbin';
export const VERSIONS_PREFIX = '/remote.php/dav/versions';
const METHODS: HTTPMethods[] = ['OPTIONS', 'GET', 'HEAD', 'DELETE', 'PROPFIND', 'COPY', 'MOVE'];

/** What the capabilities document says of the trash and versions once these routes answer (a CapabilityContribution). */
export const trashAndVersionsCapabilities = () => ({
  files: { undelete: true, versioning: true, version_labeling: false, version_deletion: true },
});

/** What one of the two collections does with a path below its `{user}`'s home. */
interface Collection<L> {
  locate(userId: string, home: string, segments: readonly string[]): Promise<L>;
  propfind(userId: string, location: L, depth: '0' | '1'): Promise<AsyncIterable<DavResource>>;
  download(userId: string, location: L): Promise<Download>;
  delete(userId: string, location: L): Promise<void>;
  /** COPY or MOVE into the home's `restore/` collection (the segments below the home). */
  restore(userId: string, location: L, destination: readonly string[], mode: 'copy' | 'move'): Promise<void>;
}

/**
 * Nextcloud's trash bin (`/remote.php/dav/trashbin/{user}/`) and file versions
 * (`/remote.php/dav/versions/{user}/`) over WebDAV, as its clients use them: PROPFIND lists, GET
 * downloads, DELETE deletes, and MOVE (or COPY, for a version) into the home's `restore/` restores.
 * Signed in as every Nextcloud address is (Basic with an app password; a `{user}` naming someone
 * else is not found).
 */
export const davTrashVersionsRoutes: FastifyPluginAsync = async (app) => {
  const { davTrashbin, davVersions } = app.deps;
  const signedIn = davScope(app);

  const serve = <L>(prefix: string, collection: Collection<L>) => {
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.method === 'OPTIONS')
        return reply.status(200).header('dav', '1').header('allow', METHODS.join(', ')).send();
      const user = signedIn(request);
      const { home, segments } = homeAndSegments(prefix, request.url);
      const location = await collection.locate(user.id, home, segments);
      switch (request.method) {
        case 'GET':
        case 'HEAD':
          return sendDownload(request, reply, await collection.download(user.id, location), {
            attachment: true,
            cacheControl: 'private, no-cache',
          });
        case 'PROPFIND':
          return sendPropfind(request, reply, (depth) => collection.propfind(user.id, location, depth));
        case 'DELETE':
          await collection.delete(user.id, location);
          return reply.status(204).send();
        case 'COPY':
        case 'MOVE': {
          const destination = destinationSegments(request, prefix, home);
          await collection.restore(
            user.id,
            location,
            destination,
            request.method === 'COPY' ? 'copy' : 'move',
          );
          return reply.status(201).send();
        }
        default:
          throw new DavRefusal('method_not_allowed');
      }
    };
    app.route({
      method: METHODS,
      url: `${prefix}/:user/*`,
      exposeHeadRoute: false,
      config: { methodOverride: false },
      schema: { hide: true },
      handler,
    });
  };
  serve(TRASHBIN_PREFIX, davTrashbin);
  serve(VERSIONS_PREFIX, davVersions);
};

/**
 * The home's href (`{prefix}/{user}/`, the user as the request wrote it) and the decoded segments
 * below it; malformed for a bad escape or a `.`/`..` segment.
 */
function homeAndSegments(prefix: string, url: string): { home: string; segments: string[] } {
  const [user = '', ...below] = url
    .split('?', 1)[0]!
    .slice(prefix.length + 1)
    .split('/');
  return { home: `${prefix}/${user}/`, segments: decodeSegments(below.join('/')) };
}

/** The Destination's segments below the same home: a restore never leaves the user's own collection. */
function destinationSegments(request: FastifyRequest, prefix: string, home: string): string[] {
  const destination = request.headers.destination;
  if (typeof destination !== 'string') throw new DavRefusal('malformed');
  let url: URL;
  try {
    url = new URL(destination, `http://${request.headers.host ?? 'localhost'}`);
  } catch {
    throw new DavRefusal('malformed');
  }
  if (request.headers.host && url.host !== new URL(`http://${request.headers.host}`).host)
    throw new DavRefusal('foreign_destination');
  if (!url.pathname.startsWith(`${prefix}/`)) throw new DavRefusal('outside_tree');
  const target = homeAndSegments(prefix, url.pathname);
  if (!sameUser(target.home, home)) throw new DavRefusal('outside_tree');
  return target.segments;
}

/** Two spellings of one home: `@` written as it is or escaped, letters in any case (an e-mail address). */
function sameUser(a: string, b: string): boolean {
  try {
    return decodeURIComponent(a).toLowerCase() === decodeURIComponent(b).toLowerCase();
  } catch {
    return false;
  }
}
