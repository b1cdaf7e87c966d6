import type { ItemResource, UploadRequestResource, UploadRequestStatus } from '@atelier/contracts';
import { json, noContent } from '../../responses';
import { buildItem, fakeFilesServer, type SeenRequest } from '../files/fake-files-server';

const refusal = (status: number, message: string) => json({ message, code: String(status) }, status);

let seed = 0;
function newToken() {
  seed += 1;
  return `7d0f3c1e-2b4a-4c8e-9f00-${String(seed).padStart(12, '0')}`;
}

export function buildRequest(
  folder: { id: string; name: string },
  attributes: Partial<UploadRequestResource['attributes']> = {},
): UploadRequestResource {
  const token = newToken();
  return {
    id: token,
    type: 'upload-request',
    attributes: {
      status: 'active',
      name: folder.name,
      notes: null,
      email: null,
      expires_at: '2099-11-23T10:00:00.000Z',
      link: `http://atelier.test/request/${token}/upload`,
      created_at: '2026-11-20T10:00:00.000Z',
      received: 0,
      ...attributes,
    },
    relationships: {
      folder: { data: { id: folder.id, type: 'folder', attributes: { name: folder.name } } },
    },
  };
}

/**
 * The owner's upload-request calls of the API addendum over the fake file store: `POST` makes the
 * request (and its folder when none is named), `GET` lists them, `DELETE` closes one.
 */
export function fakeOwnerRequestServer(items: ItemResource[]) {
  const files = fakeFilesServer(items);
  const requests = new Map<string, UploadRequestResource>();
  const seen: SeenRequest[] = [];

  function handle(request: SeenRequest): Response | undefined {
    const { method, path } = request;
    const body = request.body as Record<string, unknown>;
    if (path === '/api/file-request' && method === 'POST') {
      let folder = body.folder_id ? files.items.get(String(body.folder_id)) : undefined;
      if (body.folder_id && !folder) return refusal(404, 'Not found.');
      if (!folder) {
        folder = buildItem('folder', String(body.name));
        files.items.set(folder.id, folder);
      }
      const created = buildRequest(
        { id: folder.id, name: folder.attributes.name },
        {
          name: String(body.name ?? folder.attributes.name),
          notes: (body.notes as string | null) ?? null,
          email: (body.email as string | null) ?? null,
        },
      );
      requests.set(created.id, created);
      return json({ data: created }, 201);
    }
    if (path === '/api/file-request' && method === 'GET')
      return json({ data: [...requests.values()].reverse() });
    const match = path.match(/^\/api\/file-request\/([^/]+)$/);
    if (match && method === 'DELETE') {
      const existing = requests.get(match[1]!);
      if (!existing) return refusal(404, 'Not found.');
      if (existing.attributes.status === 'filled' || existing.attributes.status === 'expired')
        return refusal(410, 'This upload request is closed.');
      existing.attributes.status = 'filled';
      return noContent();
    }
    return undefined;
  }

  files.answer((request) => {
    const answer = handle(request);
    if (answer) seen.push(request);
    return answer;
  });

  return {
    fetch: files.fetch,
    files,
    requests,
    /** A request that exists before the test starts. */
    add(request: UploadRequestResource) {
      requests.set(request.id, request);
      return request;
    },
    calls: (method: string, path: string) =>
      seen.filter((request) => request.method === method && request.path === path),
  };
}

/**
 * One upload request as the outsider meets it: the public calls of the addendum, over a folder the
 * owner already filled (which the outsider never sees) and what this request received.
 */
export function fakeVisitRequestServer({
  status = 'active',
  notes = null,
}: { status?: UploadRequestStatus; notes?: string | null } = {}) {
  const folder = buildItem('folder', 'Signed contracts');
  const request = buildRequest(
    { id: folder.id, name: folder.attributes.name },
    {
      status,
      name: 'Signed contracts',
      notes,
      owner: { name: 'Ada Lovelace', avatar: { xs: null, sm: null, md: null } },
    },
  );
  const token = request.id;
  const scans = buildItem('folder', 'Scans', { parent_id: folder.id, items: 1, file_url: null });
  const contract = buildItem('file', 'contract.pdf', {
    parent_id: folder.id,
    mimetype: 'application/pdf',
    file_url: null,
  });
  const received = new Map([scans, contract].map((item) => [item.id, item]));
  const requests: SeenRequest[] = [];
  const base = `/api/file-request/${token}`;

  const page = (list: ItemResource[], shown: ItemResource) =>
    json({
      data: list,
      meta: { paginate: { current_page: 1, per_page: 100, total: list.length, last_page: 1 }, root: shown },
    });
  const closed = () => request.attributes.status === 'filled' || request.attributes.status === 'expired';

  function handle({ method, path, body }: SeenRequest): Response {
    if (!path.startsWith(base)) return refusal(404, 'Not found.');
    if (method === 'GET' && path === base) return json({ data: request });
    if (closed()) return refusal(410, 'This upload request is closed. Nothing more can be sent through it.');
    if (method === 'DELETE' && path === base) {
      request.attributes.status = 'filled';
      return noContent();
    }
    let match: RegExpMatchArray | null;
    if (method === 'GET' && (match = path.match(/\/browse\/([^/]+)$/))) {
      const id = match[1] === 'all' ? folder.id : match[1]!;
      if (id !== folder.id && !received.has(id)) return refusal(404, 'Not found.');
      return page(
        [...received.values()].filter((item) => item.attributes.parent_id === id),
        received.get(id) ?? folder,
      );
    }
    if (method === 'GET' && path === `${base}/navigation`)
      return json({ data: [{ id: scans.id, name: 'Scans', emoji: null, color: null, folders: [] }] });
    if (method === 'POST' && path === `${base}/upload/chunks`) {
      const form = body as FormData;
      if (form.get('is_last_chunk') !== '1') return noContent();
      const file = buildItem('file', String(form.get('name')), {
        parent_id: String(form.get('parent_id')),
        file_url: null,
      });
      received.set(file.id, file);
      request.attributes.status = 'filling';
      return json({ data: file }, 201);
    }
    if (method === 'POST' && (match = path.match(/\/rename\/([^/]+)$/))) {
      const item = received.get(match[1]!);
      if (!item) return refusal(404, 'Not found.');
      item.attributes.name = (body as { name: string }).name;
      return json({ data: item });
    }
    return refusal(404, 'Not found.');
  }

  async function fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const url = new URL(String(input), 'http://atelier.test');
    const request: SeenRequest = {
      method: (init?.method ?? 'GET').toUpperCase(),
      path: url.pathname,
      query: url.searchParams,
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : (init?.body ?? undefined),
    };
    requests.push(request);
    return handle(request);
  }

  return {
    token,
    request,
    folder,
    scans,
    contract,
    fetch,
    calls: (method: string, path: string) =>
      requests.filter((seen) => seen.method === method && seen.path === path),
  };
}
