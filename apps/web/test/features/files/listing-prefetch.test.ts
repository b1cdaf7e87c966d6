import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { filesKeys, listingKey } from '../../../src/features/files/files-api';
import { prefetchOpenFolder } from '../../../src/features/files/listing-prefetch';
import { teamFolderIdsQuery } from '../../../src/features/teams/teams-api';
import { buildItem, fakeFilesServer } from './fake-files-server';

let server: ReturnType<typeof fakeFilesServer>;
const projects = buildItem('folder', 'Projects', { items: 1 });
const drawing = buildItem('file', 'drawing.step', { parent_id: projects.id });

beforeEach(() => {
  server = fakeFilesServer([projects, drawing]);
  vi.stubGlobal('fetch', server.fetch);
});

describe('the open folder asked for on a cold load', () => {
  it('is cached under the key the file browser reads, in the order this browser lists in', async () => {
    localStorage.setItem('atelier.files.sort', 'name:asc');
    const queryClient = new QueryClient();
    prefetchOpenFolder(queryClient, `/platform/files/${projects.id}`);
    await vi.waitFor(() => expect(queryClient.isFetching()).toBe(0));

    const [asked] = server.calls('GET', `/api/browse/folders/${projects.id}`);
    expect(asked?.query.get('sort')).toBe('name');
    expect(asked?.query.get('direction')).toBe('asc');
    const key = listingKey(
      filesKeys.listings,
      { kind: 'folder', id: projects.id },
      { sort: 'name', direction: 'asc' },
    );
    const cached = queryClient.getQueryData<{ pages: { data: { id: string }[] }[] }>(key);
    expect(cached?.pages[0]?.data.map((item) => item.id)).toEqual([drawing.id]);
  });

  it('comes with the ids of the team folders every row reads for its mark', async () => {
    server.answer((request) =>
      request.path === '/api/teams/folders/all'
        ? Response.json({
            data: [projects],
            meta: { paginate: { current_page: 1, per_page: 500, total: 1, last_page: 1 } },
          })
        : undefined,
    );
    const queryClient = new QueryClient();
    prefetchOpenFolder(queryClient, `/platform/files/${projects.id}`);
    await vi.waitFor(() => expect(queryClient.isFetching()).toBe(0));

    const [asked] = server.calls('GET', '/api/teams/folders/all');
    expect(asked?.query.get('per_page')).toBe('500');
    const cached = queryClient.getQueryData(teamFolderIdsQuery.queryKey);
    expect(cached?.data.map((item) => item.id)).toEqual([projects.id]);
  });

  it('is My files at the top, and nothing on other screens', async () => {
    const queryClient = new QueryClient();
    prefetchOpenFolder(queryClient, '/platform/files');
    prefetchOpenFolder(queryClient, `/platform/trash/${projects.id}`);
    prefetchOpenFolder(queryClient, `/platform/files/${projects.id}/extra`);
    await vi.waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(server.requests.map((request) => request.path)).toEqual([
      '/api/browse/folders/all',
      '/api/teams/folders/all',
    ]);
  });
});
