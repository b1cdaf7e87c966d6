import type { FolderNode, ItemResource } from '@atelier/contracts';
import { json } from '../../responses';

/** A request as the fake server saw it. */
export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

type Override = (request: SeenRequest) => Response | Promise<Response> | undefined;

let nextId = 0;

export function buildItem(
  type: 'file' | 'folder',
  name: string,
  attributes: Partial<ItemResource['attributes']> = {},
): ItemResource {
  nextId += 1;
  const parent = attributes.parent_id ?? null;
  return {
    id: `${type}-${nextId}`,
    type,
    attributes: {
      name,
      parent_id: parent,
      items: type === 'folder' ? 0 : null,
      color: null,
      emoji: null,
      deleted_at: null,
      item_id: null,
      file_url: type === 'file' ? `/file/${type}-${nextId}` : null,
      mimetype: type === 'file' ? 'text/plain' : null,
      filesize: type === 'file' ? 2048 : null,
      thumbnail: null,
      created_at: '2026-11-20T10:00:00.000Z',
      updated_at: '2026-11-20T10:00:00.000Z',
      ...attributes,
    },
    relationships: {
      folder: { data: parent ? { id: parent, type: 'folder' } : null },
      favourites: { data: null },
      shared: { data: null },
    },
  };
}

async function bodyOf(init: RequestInit | undefined): Promise<unknown> {
  if (!init?.body) return undefined;
  if (typeof init.body === 'string') return JSON.parse(init.body);
  return init.body;
}

/**
 * An in-memory owner's file store answering the browse and change calls of the API addendum, so
 * the screens are exercised through their real HTTP client. `override` lets a test answer one
 * call differently (a refusal, a slow answer).
 */
export function fakeFilesServer(initial: ItemResource[]) {
  const items = new Map(initial.map((item) => [item.id, item]));
  const trash = new Map<string, ItemResource>();
  const requests: SeenRequest[] = [];
  let override: Override | undefined;

  const children = (parentId: string | null) =>
    [...items.values()].filter((item) => item.attributes.parent_id === parentId);
  const tree = (parentId: string | null): FolderNode[] =>
    children(parentId)
      .filter((item) => item.type === 'folder')
      .map((folder) => ({
        id: folder.id,
        name: folder.attributes.name,
        emoji: folder.attributes.emoji,
        color: folder.attributes.color,
        folders: tree(folder.id),
      }));
  const page = (list: ItemResource[], root: ItemResource | null) =>
    json({
      data: list,
      meta: { paginate: { current_page: 1, per_page: 100, total: list.length, last_page: 1 }, root },
    });

  async function handle(request: SeenRequest): Promise<Response> {
    const { method, path, body } = request;
    let match: RegExpMatchArray | null;
    if (method === 'GET' && (match = path.match(/^\/api\/browse\/folders\/(.+)$/))) {
      const id = match[1] === 'all' ? null : match[1]!;
      const root = id ? items.get(id) : null;
      if (root === undefined) return json({ message: 'Not found.', code: 'not_found' }, 404);
      return page(children(id), root);
    }
    if (method === 'GET' && path.startsWith('/api/browse/trash/')) return page([...trash.values()], null);
    if (method === 'GET' && path === '/api/browse/navigation') return json({ data: tree(null) });
    if (method === 'GET' && path === '/api/browse/favourites')
      return json({ data: [...items.values()].filter((item) => item.relationships.favourites.data) });
    if (method === 'GET' && path === '/api/search') {
      const query = request.query.get('query')?.toLowerCase() ?? '';
      return json({
        data: [...items.values()].filter((item) => item.attributes.name.toLowerCase().includes(query)),
      });
    }
    if (method === 'POST' && path === '/api/create-folder') {
      const { name, emoji, parent_id } = body as {
        name: string;
        emoji: string | null;
        parent_id: string | null;
      };
      const folder = buildItem('folder', name, { emoji, parent_id });
      items.set(folder.id, folder);
      return json({ data: folder }, 201);
    }
    if (method === 'POST' && path === '/api/favourites') {
      for (const id of (body as { ids: string[] }).ids) {
        const item = items.get(id);
        if (item) item.relationships.favourites.data = { id, type: 'favourite' };
      }
      return new Response(null, { status: 204 });
    }
    if (method === 'POST' && (match = path.match(/^\/api\/favourites\/(.+)$/))) {
      const item = items.get(match[1]!);
      if (item) item.relationships.favourites.data = null;
      return new Response(null, { status: 204 });
    }
    if (method === 'POST' && path === '/api/move') {
      const { to_id, items: moved } = body as { to_id: string | null; items: { id: string }[] };
      for (const { id } of moved) {
        const item = items.get(id);
        if (item) item.attributes.parent_id = to_id;
      }
      return new Response(null, { status: 204 });
    }
    if (method === 'POST' && path === '/api/remove') {
      for (const { id } of (body as { items: { id: string }[] }).items) {
        const item = items.get(id);
        if (item) trash.set(id, item);
        items.delete(id);
      }
      return new Response(null, { status: 204 });
    }
    if (method === 'POST' && path === '/api/trash/restore') {
      const { to_home, items: restored } = body as { to_home: boolean; items: { id: string }[] };
      for (const { id } of restored) {
        const item = trash.get(id);
        if (item)
          items.set(id, to_home ? { ...item, attributes: { ...item.attributes, parent_id: null } } : item);
        trash.delete(id);
      }
      return new Response(null, { status: 204 });
    }
    if (method === 'POST' && path === '/api/trash/dump') {
      trash.clear();
      return new Response(null, { status: 204 });
    }
    if (method === 'POST' && path === '/api/upload/chunks') {
      const form = body as FormData;
      if (form.get('is_last_chunk') !== '1') return new Response(null, { status: 204 });
      const parentId = form.has('parent_id') ? String(form.get('parent_id')) : null;
      const file = buildItem('file', String(form.get('name')), { parent_id: parentId });
      items.set(file.id, file);
      return json({ data: file }, 201);
    }
    return json({ message: 'Not found.', code: 'not_found' }, 404);
  }

  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input), 'http://atelier.test');
    const request: SeenRequest = {
      method: (init?.method ?? 'GET').toUpperCase(),
      path: url.pathname,
      query: url.searchParams,
      body: await bodyOf(init),
    };
    requests.push(request);
    return (await override?.(request)) ?? handle(request);
  };

  return {
    fetch,
    requests,
    items,
    trash,
    answer(next: Override | undefined) {
      override = next;
    },
    calls: (method: string, path: string) =>
      requests.filter((request) => request.method === method && request.path === path),
  };
}
