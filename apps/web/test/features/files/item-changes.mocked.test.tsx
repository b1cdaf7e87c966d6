import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildConfig, buildUser } from '../../fixtures';
import { renderApp } from '../../render-app';
import { fakeTeamServer } from '../teams/fake-team-server';
import { buildItem, fakeFilesServer } from './fake-files-server';

// The realtime connection is replaced by a hand that delivers the events a test chooses.
const listeners = vi.hoisted(() => new Map<string, (payload: unknown) => void>());
vi.mock('../../../src/lib/realtime', () => ({
  subscribeRealtime: (event: string, handler: (payload: unknown) => void) => {
    listeners.set(event, handler);
    return () => listeners.delete(event);
  },
}));
const itemsChanged = () => act(() => listeners.get('items.changed')!({ owner_id: 'user-olivia' }));
const realtimeOn = buildConfig({ broadcasting: { driver: 'socket.io' } });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('open listings follow items.changed', { timeout: 30_000 }, () => {
  it('shows a team member what another member uploaded, moved away and deleted', async () => {
    const server = fakeTeamServer({ viewer: 'can_edit' });
    vi.stubGlobal('fetch', server.fetch);
    await renderApp(`/platform/shared-with-me/${server.studio.id}`, {
      config: realtimeOn,
      user: buildUser(),
    });
    await screen.findByText('brief.txt');

    // Another member's writes, as the server now holds them.
    const sketch = buildItem('file', 'sketch.png', { parent_id: server.studio.id });
    server.items.set(sketch.id, sketch);
    server.items.get(server.renders.id)!.attributes.parent_id = 'elsewhere';
    server.items.delete(server.brief.id);
    itemsChanged();

    await waitFor(() => {
      const rows = screen.queryAllByTestId('item-row');
      expect(rows).toHaveLength(1);
      expect(rows[0]).toHaveTextContent('sketch.png');
    });
  });

  it('fetches My files again once at the start of a burst of changes and once after it', async () => {
    const server = fakeFilesServer([buildItem('file', 'report.txt')]);
    vi.stubGlobal('fetch', server.fetch);
    await renderApp('/platform/files', { config: realtimeOn, user: buildUser() });
    await screen.findByText('report.txt');
    const fetches = () => server.calls('GET', '/api/browse/folders/all').length;
    const before = fetches();

    // A folder of twenty files arriving one by one.
    for (let i = 1; i <= 20; i++) {
      const file = buildItem('file', `part-${i}.txt`);
      server.items.set(file.id, file);
      itemsChanged();
    }
    expect(await screen.findByText('part-20.txt')).toBeInTheDocument();
    await waitFor(() => expect(fetches()).toBe(before + 2));
  });
});
