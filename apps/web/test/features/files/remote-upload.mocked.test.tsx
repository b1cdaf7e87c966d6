import type { ItemResource, RealtimePayload } from '@atelier/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { overlayStore } from '../../../src/components/overlays/overlay-store';
import { buildConfig, buildUser } from '../../fixtures';
import { renderApp } from '../../render-app';
import { buildItem, fakeFilesServer } from './fake-files-server';

type RemoteEvent = RealtimePayload<'RemoteFile.Created'>;

// The realtime connection is replaced by a hand that delivers the events a test chooses.
const listeners = vi.hoisted(() => new Map<string, (payload: unknown) => void>());
vi.mock('../../../src/lib/realtime', () => ({
  subscribeRealtime: (event: string, handler: (payload: unknown) => void) => {
    listeners.set(event, handler);
    return () => listeners.delete(event);
  },
}));
const deliver = (event: RemoteEvent) => act(() => listeners.get('RemoteFile.Created')!(event));

let server: ReturnType<typeof fakeFilesServer>;

beforeEach(() => {
  server = fakeFilesServer([buildItem('file', 'report.txt')]);
  server.answer((request) =>
    request.method === 'POST' && request.path === '/api/upload/remote'
      ? new Response(JSON.stringify({ data: { id: 'upload-1', total: 3 } }), {
          status: 202,
          headers: { 'Content-Type': 'application/json' },
        })
      : undefined,
  );
  vi.stubGlobal('fetch', server.fetch);
  overlayStore.set((state) => ({ ...state, popup: null, toasts: [] }));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

async function openDialog() {
  const user = userEvent.setup();
  const view = await renderApp('/platform/files', {
    config: buildConfig({ broadcasting: { driver: 'socket.io' } }),
    user: buildUser(),
  });
  await screen.findByText('report.txt');
  await user.click(screen.getByRole('button', { name: 'Upload' }));
  await user.click(await screen.findByRole('menuitem', { name: 'Upload from URLs' }));
  const dialog = await screen.findByRole('dialog', { name: 'Upload from URLs' });
  return { user, view, dialog, box: within(dialog).getByLabelText('Addresses') };
}

describe('upload from URLs', { timeout: 30_000 }, () => {
  it('says which line is not an address, or that there are too many, and sends nothing', async () => {
    const { user, dialog, box } = await openDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Download' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Paste at least one address.');

    await user.type(box, 'https://example.com/a.png{Enter}{Enter}mailto:someone@example.com');
    expect(within(dialog).getByText('2 of 50 addresses')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Download' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'Line 2 is not an http:// or https:// address.',
    );

    // The message goes as soon as the addresses change.
    await user.type(box, 'x');
    expect(within(dialog).queryByRole('alert')).toBeNull();

    await user.clear(box);
    await user.click(box);
    await user.paste(Array.from({ length: 51 }, (_, i) => `https://example.com/${i}.png`).join('\n'));
    await user.click(within(dialog).getByRole('button', { name: 'Download' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Paste at most 50 addresses at once.');
    expect(server.calls('POST', '/api/upload/remote')).toHaveLength(0);
  });

  it('sends the addresses, then counts them in the bar as they arrive and toasts at the end', async () => {
    const { user, dialog, box } = await openDialog();
    await user.click(box);
    await user.paste(' https://example.com/a.png \n\nhttps://example.com/b.pdf\nhttp://example.com/c');
    await user.click(within(dialog).getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    expect(server.calls('POST', '/api/upload/remote')[0]?.body).toEqual({
      urls: ['https://example.com/a.png', 'https://example.com/b.pdf', 'http://example.com/c'],
      parent_id: null,
    });

    const bar = await screen.findByTestId('remote-upload-bar');
    expect(bar).toHaveTextContent('0 of 3 processed');
    const arrived = buildItem('file', 'a.png', { mimetype: 'image/png' }) as ItemResource;
    deliver({ upload_id: 'upload-1', file: arrived, progress: { total: 3, processed: 1, failed: 0 } });
    // The file joins the open folder without a reload.
    expect(await screen.findByText('a.png')).toBeInTheDocument();
    deliver({ upload_id: 'upload-1', file: null, progress: { total: 3, processed: 2, failed: 1 } });
    expect(bar).toHaveTextContent('2 of 3 processed · 1 failed');
    expect(within(bar).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '67');

    deliver({ upload_id: 'upload-1', file: null, progress: { total: 3, processed: 3, failed: 2 } });
    expect(bar).toHaveTextContent('Downloaded from URLs');
    expect(overlayStore.get().toasts.map((toast) => [toast.kind, toast.message])).toEqual([
      ['danger', '2 of 3 addresses could not be downloaded.'],
    ]);
    await waitFor(() => expect(screen.queryByTestId('remote-upload-bar')).toBeNull(), { timeout: 5_000 });
  });
});
