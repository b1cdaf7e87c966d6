import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ownerSource } from '../../../src/features/files/file-source';
import { listingQuery } from '../../../src/features/files/listing-cache';
import { buildItem, fakeFilesServer } from './fake-files-server';

let server: ReturnType<typeof fakeFilesServer>;
const folder = buildItem('folder', 'Renders', { items: 3 });
const [first, second, third] = ['a.png', 'b.png', 'c.png'].map((name) =>
  buildItem('file', name, { parent_id: folder.id }),
);
const BY_NAME = { sort: 'name', direction: 'asc' } as const;

/** A listing of one item a page, whose pages give the next page's cursor when `cursors`. */
function pagesOfOne(cursors: boolean) {
  const all = [first!, second!, third!];
  server.answer((request) => {
    if (request.path !== `/api/browse/folders/${folder.id}`) return undefined;
    const cursor = request.query.get('cursor');
    const at = cursor
      ? all.findIndex((item) => item.id === cursor) + 1
      : Number(request.query.get('page')) - 1;
    const page = Number(request.query.get('page'));
    return Response.json({
      data: all.slice(at, at + 1),
      meta: {
        root: folder,
        paginate: { current_page: page, per_page: 1, total: all.length, last_page: all.length },
        ...(cursors ? { next_cursor: at + 1 < all.length ? all[at]!.id : null } : {}),
      },
    });
  });
}

beforeEach(() => {
  server = fakeFilesServer([folder, first!, second!, third!]);
  vi.stubGlobal('fetch', server.fetch);
});

describe('a folder listing read page after page', () => {
  it("asks for each page after the first with the page before's cursor, as well as its number", async () => {
    pagesOfOne(true);
    const queryClient = new QueryClient();
    const data = await queryClient.fetchInfiniteQuery({
      ...listingQuery(ownerSource, { kind: 'folder', id: folder.id }, BY_NAME),
      pages: 3,
    });

    expect(data.pages.flatMap((page) => page.data.map((item) => item.attributes.name))).toEqual([
      'a.png',
      'b.png',
      'c.png',
    ]);
    const asked = server.calls('GET', `/api/browse/folders/${folder.id}`);
    expect(asked.map((request) => [request.query.get('page'), request.query.get('cursor')])).toEqual([
      ['1', null],
      ['2', first!.id],
      ['3', second!.id],
    ]);
  });

  it('asks by number alone where the listing gives no cursors', async () => {
    pagesOfOne(false);
    const queryClient = new QueryClient();
    await queryClient.fetchInfiniteQuery({
      ...listingQuery(ownerSource, { kind: 'folder', id: folder.id }, BY_NAME),
      pages: 2,
    });

    const asked = server.calls('GET', `/api/browse/folders/${folder.id}`);
    expect(asked.map((request) => [request.query.get('page'), request.query.get('cursor')])).toEqual([
      ['1', null],
      ['2', null],
    ]);
  });
});
