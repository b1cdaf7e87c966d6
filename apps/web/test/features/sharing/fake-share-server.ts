import type {
  ItemResource,
  ShareAttributes,
  ShareExpiry,
  SharePermission,
  ShareProduct,
  VersionResource,
} from '@atelier/contracts';
import { json, noContent } from '../../responses';
import { buildItem, fakeFilesServer, type SeenRequest } from '../files/fake-files-server';

const refusal = (status: number, code: string, message = code, errors?: Record<string, string[]>) =>
  json({ message, code, ...(errors ? { errors } : {}) }, status);

let tokenSeed = 0;
function newToken() {
  tokenSeed += 1;
  return `Tok${String(tokenSeed).padStart(4, '0')}abcdefghijklmnopqrstuvw`;
}

/**
 * The owner's share calls of the API addendum over the fake file store (a new one of `items`, or one
 * another fake already answers through): links live in `shares` and show on their items as
 * `relationships.shared`, as the real listings carry them. `projects` names the folders that are
 * projects' (by id): their links are also product pages.
 */
export function fakeOwnerShareServer(
  items: ItemResource[] | ReturnType<typeof fakeFilesServer>,
  projects: Record<string, string> = {},
) {
  const files = Array.isArray(items) ? fakeFilesServer(items) : items;
  const shares = new Map<string, ShareAttributes>();
  const requests: SeenRequest[] = [];

  const productOf = (token: string, itemId: string): ShareProduct | null => {
    const name = projects[itemId];
    if (name === undefined) return null;
    return {
      link: `http://atelier.test/share/${token}/product`,
      iframe: `<iframe src="http://atelier.test/share/${token}/product?embed=1" title="${name}"></iframe>`,
      script: `<script async src="http://atelier.test/embed.js" data-product="${token}"></script>`,
    };
  };

  function link(attributes: ShareAttributes) {
    const item = files.items.get(attributes.item_id);
    if (item) {
      const { token, permission, expire_in } = attributes;
      item.relationships.shared.data = { token, permission, protected: attributes.protected, expire_in };
    }
    shares.set(attributes.token, attributes);
    return { data: { id: attributes.token, type: 'share', attributes } };
  }

  /** A link that exists before the test starts. */
  function share(item: ItemResource, overrides: Partial<ShareAttributes> = {}) {
    const token = newToken();
    return link({
      token,
      permission: item.type === 'file' ? 'visitor' : 'editor',
      protected: false,
      expire_in: null,
      expires_at: null,
      item_id: item.id,
      item_type: item.type,
      link: `http://atelier.test/share/${token}`,
      product: productOf(token, item.id),
      created_at: '2026-11-20T10:00:00.000Z',
      views: 7,
      downloads: 2,
      ...overrides,
    }).data.attributes;
  }

  function handle(request: SeenRequest): Response | undefined {
    const { method, path } = request;
    const body = request.body as Record<string, unknown>;
    let match: RegExpMatchArray | null;
    if (method === 'POST' && path === '/api/share') {
      const item = files.items.get(String(body.id));
      if (!item) return refusal(404, 'not_found');
      // One link per item, as the server's unique item_id has it.
      if (item.relationships.shared.data)
        // As the server words it: its refusals arrive translated, not as keys.
        return refusal(
          422,
          'validation_failed',
          'This item already has a link. Edit that link or revoke it first.',
          {
            id: ['This item already has a link. Edit that link or revoke it first.'],
          },
        );
      const token = newToken();
      const expiration = (body.expiration ?? null) as ShareExpiry;
      return json(
        link({
          token,
          permission: body.permission as SharePermission,
          protected: body.isPassword === true,
          expire_in: expiration,
          expires_at: expiration ? '2026-11-20T16:00:00.000Z' : null,
          item_id: item.id,
          item_type: item.type,
          link: `http://atelier.test/share/${token}`,
          product: productOf(token, item.id),
          created_at: '2026-11-20T10:00:00.000Z',
          views: 0,
          downloads: 0,
        }),
        201,
      );
    }
    if (method === 'POST' && path === '/api/share/revoke') {
      for (const token of body.tokens as string[]) {
        const gone = shares.get(token);
        shares.delete(token);
        const item = gone && files.items.get(gone.item_id);
        if (item) item.relationships.shared.data = null;
      }
      return noContent();
    }
    if ((match = path.match(/^\/api\/share\/(\w+)\/email$/)) && method === 'POST')
      return shares.has(match[1]!) ? noContent() : refusal(404, 'not_found');
    if ((match = path.match(/^\/api\/share\/(\w+)$/))) {
      const current = shares.get(match[1]!);
      if (!current) return refusal(404, 'not_found');
      if (method === 'GET') return json({ data: { id: current.token, type: 'share', attributes: current } });
      const changed = { ...current };
      if ('permission' in body) changed.permission = body.permission as SharePermission;
      if ('isPassword' in body) changed.protected = body.isPassword === true;
      if ('expiration' in body) changed.expire_in = body.expiration as ShareExpiry;
      return json(link(changed));
    }
    if (method === 'GET' && path === '/api/browse/share') {
      const shared = [...files.items.values()].filter((item) => item.relationships.shared.data !== null);
      return json({
        data: shared,
        meta: {
          paginate: { current_page: 1, per_page: 100, total: shared.length, last_page: 1 },
          root: null,
        },
      });
    }
    return undefined;
  }

  files.answer((request) => {
    const answer = handle(request);
    if (answer) requests.push(request);
    return answer;
  });

  return {
    fetch: files.fetch,
    files,
    shares,
    share,
    calls: (method: string, path: string) =>
      requests.filter((request) => request.method === method && request.path === path),
  };
}

/** When the links of the visit server stopped (ended ones) or stop (live ones) working. */
export const ENDED_AT = '2026-11-20T15:30:00.000Z';
export const EXPIRES_AT = '2026-12-03T09:00:00.000Z';

interface VisitOptions {
  permission?: SharePermission;
  protected?: boolean;
  itemType?: 'file' | 'folder';
  state?: 'live' | 'unknown' | 'revoked' | 'expired';
}

/**
 * One share link as an anonymous visitor meets it: the public calls of the addendum, a password
 * gate with its share session, the throttle after five wrong answers, and a folder inside.
 */
export function fakeVisitServer({
  permission = 'visitor',
  protected: isProtected = false,
  itemType = 'folder',
  state = 'live',
}: VisitOptions = {}) {
  const token = newToken();
  const root =
    itemType === 'folder'
      ? buildItem('folder', 'Client handover', { items: 2 })
      : buildItem('file', 'brief.txt', { filesize: 1200 });
  const drawings = buildItem('folder', 'Drawings', { parent_id: root.id, items: 1 });
  const readme = buildItem('file', 'readme.txt', { parent_id: root.id, filesize: 512 });
  const plan = buildItem('file', 'plan.txt', { parent_id: drawings.id, filesize: 256 });
  const inside = new Map([drawings, readme, plan].map((item) => [item.id, item]));
  const requests: SeenRequest[] = [];
  const visit = {
    token,
    root,
    drawings,
    readme,
    plan,
    state,
    password: 'studio 52',
    /** Whether this browser holds a share session (the password was given). */
    unlocked: false,
    wrongAnswers: 0,
    versions: [
      {
        id: 'v-now',
        type: 'version' as const,
        attributes: { size: 512, created_at: ENDED_AT, current: true, author: { name: 'Ada Lovelace' } },
      },
      {
        id: 'v-old',
        type: 'version' as const,
        attributes: { size: 300, created_at: ENDED_AT, current: false, author: { name: null } },
      },
    ] as VersionResource[],
    requests,
    calls: (method: string, path: string) =>
      requests.filter((request) => request.method === method && request.path === path),
    fetch,
  };

  // As the server does, a listing's root is the folder shown: the shared folder itself at the top.
  const page = (list: ItemResource[], shown: ItemResource) =>
    json({
      data: list,
      meta: { paginate: { current_page: 1, per_page: 100, total: list.length, last_page: 1 }, root: shown },
    });

  function handle(request: SeenRequest): Response {
    const { method, path } = request;
    if (!path.endsWith(`/${token}`)) return refusal(404, 'not_found');
    if (visit.state === 'unknown') return refusal(404, 'not_found');
    // As the server does, a link that ended names whom to ask and since when.
    if (visit.state === 'revoked' || visit.state === 'expired')
      return json(
        {
          message: 'Ended.',
          code: `share_${visit.state}`,
          owner: { name: 'Ada Lovelace' },
          ended_at: ENDED_AT,
        },
        410,
      );
    const seen = !isProtected || visit.unlocked;
    if (method === 'GET' && path === `/api/sharing/${token}`) {
      return json({
        data: {
          id: token,
          type: 'share',
          attributes: {
            permission,
            protected: isProtected,
            item_type: itemType,
            expire_in: 24,
            expires_at: EXPIRES_AT,
            owner: { name: 'Ada Lovelace', avatar: { xs: null, sm: null, md: null } },
            ...(seen ? { item_id: root.id } : {}),
          },
        },
      });
    }
    if (method === 'POST' && path === `/api/sharing/authenticate/${token}`) {
      if (visit.wrongAnswers >= 5) {
        const message = 'Too many wrong passwords. Try again in 42 seconds.';
        return refusal(429, 'throttled', message, { password: [message] });
      }
      if ((request.body as { password: string }).password !== visit.password) {
        visit.wrongAnswers += 1;
        return refusal(401, 'unauthenticated', 'Wrong password.');
      }
      visit.unlocked = true;
      return noContent();
    }
    if (!seen) return refusal(401, 'unauthenticated');
    let match: RegExpMatchArray | null;
    if (method === 'GET' && (match = path.match(/^\/api\/sharing\/folders\/([^/]+)\//))) {
      const id = match[1] === 'all' ? root.id : match[1]!;
      if (id !== root.id && !inside.has(id)) return refusal(404, 'not_found');
      return page(
        [...inside.values()].filter((item) => item.attributes.parent_id === id),
        inside.get(id) ?? root,
      );
    }
    if (method === 'GET' && path === `/api/sharing/navigation/${token}`)
      return json({
        data: [{ id: drawings.id, name: 'Drawings', emoji: null, color: null, folders: [] }],
      });
    if (method === 'GET' && path === `/api/sharing/file/${token}`) return json({ data: root });
    // Only what lies below the shared folder, as the server confines it.
    if (method === 'GET' && path === `/api/sharing/search/${token}`) {
      const query = request.query.get('query')?.toLowerCase() ?? '';
      return json({
        data: [...inside.values()].filter((item) => item.attributes.name.toLowerCase().includes(query)),
      });
    }
    // readme.txt's versions (a shared file's, on a file's link): the current bytes and one saved before.
    if (
      method === 'GET' &&
      path === `/api/sharing/versions/${itemType === 'file' ? root.id : readme.id}/${token}`
    )
      return json({ data: visit.versions });
    if ((method === 'POST' || method === 'DELETE') && permission !== 'editor')
      return refusal(403, 'forbidden');
    if (method === 'POST' && path === `/api/sharing/version/${readme.id}/v-old/restore/${token}`)
      return json({ data: readme });
    if (method === 'DELETE' && path === `/api/sharing/version/${readme.id}/v-old/${token}`) {
      visit.versions = visit.versions.slice(0, 1);
      return noContent();
    }
    if (method === 'POST' && path === `/api/sharing/upload/chunks/${token}`) {
      const form = request.body as FormData;
      if (form.get('is_last_chunk') !== '1') return noContent();
      const name = String(form.get('name'));
      const parentId = String(form.get('parent_id'));
      // A replaced file keeps its id and takes the new bytes' size and date.
      const replaced =
        form.get('conflict') === 'replace' &&
        [...inside.values()].find(
          (item) => item.attributes.parent_id === parentId && item.attributes.name === name,
        );
      if (replaced) {
        const { size } = form.get('chunk') as Blob;
        replaced.attributes = { ...replaced.attributes, filesize: size, updated_at: ENDED_AT };
        return json({ data: replaced });
      }
      const file = buildItem('file', name, { parent_id: parentId });
      inside.set(file.id, file);
      return json({ data: file }, 201);
    }
    if (method === 'POST' && path === `/api/sharing/create-folder/${token}`) {
      const { name, parent_id } = request.body as { name: string; parent_id: string };
      const folder = buildItem('folder', name, { parent_id });
      inside.set(folder.id, folder);
      return json({ data: folder }, 201);
    }
    return refusal(404, 'not_found');
  }

  async function fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const url = new URL(String(input), 'http://atelier.test');
    const body =
      typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : (init?.body ?? undefined);
    const request: SeenRequest = {
      method: (init?.method ?? 'GET').toUpperCase(),
      path: url.pathname,
      query: url.searchParams,
      body,
    };
    requests.push(request);
    return handle(request);
  }

  return visit;
}
