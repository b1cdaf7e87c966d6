import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser } from '../../fixtures';
import { renderApp } from '../../render-app';
import { fakeFilesServer } from './fake-files-server';

afterEach(() => vi.unstubAllGlobals());

describe('storage usage page', () => {
  it('lists the categories largest share first, with the amount used and the percentage', async () => {
    const server = fakeFilesServer([]);
    server.answer((request) =>
      request.path === '/api/user/storage'
        ? Response.json({
            data: {
              used: 3_500_000,
              capacity: 10_000_000,
              percentage: 35,
              categories: [
                { category: 'images', used: 500_000, percentage: 5 },
                { category: 'empty', used: 6_500_000, percentage: 65 },
                { category: 'videos', used: 3_000_000, percentage: 30 },
                { category: 'audios', used: 0, percentage: 0 },
              ],
            },
          })
        : undefined,
    );
    vi.stubGlobal('fetch', server.fetch);
    await renderApp('/user/settings/storage', { user: buildUser() });

    await screen.findAllByTestId('storage-category');
    const rows = screen.getAllByTestId('storage-category').map((row) => row.textContent);
    expect(rows).toEqual(['Free space6.5 MB65%', 'Videos3 MB30%', 'Images500 KB5%', 'Audio0 B0%']);
    expect(screen.getByText('3.5 MB')).toBeInTheDocument();
    expect(screen.getByText('35% of 10 MB')).toBeInTheDocument();
    // The bar shows the used categories only: no slice for free space or for empty categories.
    const bar = screen.getByRole('img', { name: '3.5 MB used, by category' });
    expect([...bar.children].map((slice) => (slice as HTMLElement).style.width)).toEqual(['30%', '5%']);
    expect(screen.queryByText(/WebDAV/)).not.toBeInTheDocument();
  });

  it('says what others holds besides files once it holds something', async () => {
    const note = 'Others also holds the properties that WebDAV apps save on your files and folders.';
    const server = fakeFilesServer([]);
    server.answer((request) =>
      request.path === '/api/user/storage'
        ? Response.json({
            data: {
              used: 1_200,
              capacity: null,
              percentage: 100,
              categories: [
                { category: 'others', used: 700, percentage: 58.33 },
                { category: 'documents', used: 500, percentage: 41.67 },
              ],
            },
          })
        : undefined,
    );
    vi.stubGlobal('fetch', server.fetch);
    await renderApp('/user/settings/storage', { user: buildUser() });

    await screen.findAllByTestId('storage-category');
    expect(screen.getByText(note)).toBeInTheDocument();
  });
});
