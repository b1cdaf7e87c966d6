import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { buildUser } from '../../fixtures';
import { currentUrl, renderApp } from '../../render-app';
import { fakeTeamServer } from './fake-team-server';

let server: ReturnType<typeof fakeTeamServer>;

function serve(viewer: 'can_view' | 'can_edit') {
  server = fakeTeamServer({ viewer });
  vi.stubGlobal('fetch', server.fetch);
}

const row = (name: string) =>
  screen.getAllByTestId('item-row').find((element) => within(element).queryByText(name))!;

async function menuOf(name: string) {
  await userEvent.click(within(row(name)).getByRole('button', { name: `Actions for ${name}` }));
  const menu = await screen.findByRole('menu');
  const entries = within(menu)
    .getAllByRole('menuitem')
    .map((entry) => entry.textContent);
  await userEvent.keyboard('{Escape}');
  return entries;
}

async function openTeam(viewer: 'can_view' | 'can_edit') {
  serve(viewer);
  const view = await renderApp(`/platform/shared-with-me/${server.studio.id}`, { user: buildUser() });
  await screen.findByText('brief.txt');
  return view;
}

describe('a team folder shared with me', { timeout: 30_000 }, () => {
  it('lists the folders others shared, with whose each is and what I may do', async () => {
    serve('can_view');
    const { router } = await renderApp('/platform/shared-with-me', { user: buildUser() });
    await screen.findAllByTestId('item-row');
    await waitFor(() => expect(row('Studio')).toHaveTextContent('Olivia Owner'));
    expect(row('Studio')).toHaveTextContent('Can view');
    // The list's teams came with it: no call per row.
    expect(server.calls('GET', `/api/teams/shared-with-me/${server.studio.id}`)).toHaveLength(0);
    expect(await menuOf('Studio')).toEqual(['Open', 'Download as zip', 'Members', 'Leave team']);
    await userEvent.dblClick(row('Studio'));
    await waitFor(() => expect(currentUrl(router)).toBe(`/platform/shared-with-me/${server.studio.id}`));
  });

  it('hides every write action from a viewer: no upload, new folder, rename, move, delete or dragging', async () => {
    await openTeam('can_view');
    expect(screen.getByText('Shared by Olivia Owner · view only')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Upload' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New folder' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add to favourites' })).not.toBeInTheDocument();
    expect(await menuOf('brief.txt')).toEqual(['Preview', 'Download', 'Versions']);
    expect(await menuOf('Renders')).toEqual(['Open', 'Download as zip']);
    expect(row('brief.txt')).toHaveAttribute('draggable', 'false');

    // Neither the keyboard nor a drop from the desktop changes anything.
    await userEvent.click(row('brief.txt'));
    await userEvent.keyboard('{Delete}');
    const file = new File(['x'], 'dropped.txt', { type: 'text/plain' });
    fireEvent.drop(screen.getByTestId('file-drop-zone'), {
      dataTransfer: { files: [file], types: ['Files'] },
    });
    expect(server.calls('POST', '/api/remove')).toEqual([]);
    expect(server.calls('POST', '/api/upload/chunks')).toEqual([]);
  });

  it('gives an editor the write actions, through the owner’s usual calls', async () => {
    await openTeam('can_edit');
    expect(screen.getByText('Shared by Olivia Owner · you can edit')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New folder' })).toBeInTheDocument();
    // A member never marks favourites or shares the owner's items.
    expect(await menuOf('brief.txt')).toEqual([
      'Preview',
      'Download',
      'Versions',
      'Rename',
      'Move',
      'Delete',
    ]);

    await userEvent.click(within(row('brief.txt')).getByRole('button', { name: 'Actions for brief.txt' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    await waitFor(() => expect(server.calls('POST', '/api/remove')).toHaveLength(1));
    expect(server.calls('POST', '/api/remove')[0]?.body).toEqual({
      items: [{ id: server.brief.id, type: 'file', force_delete: false }],
    });
    await waitFor(() => expect(screen.queryByText('brief.txt')).not.toBeInTheDocument());
  });

  it('reads the team again when a change is refused because the owner made me a viewer meanwhile', async () => {
    const { router } = await openTeam('can_edit');
    server.team.permission = 'can_view';
    server.answer((request) =>
      request.path === '/api/remove'
        ? new Response(JSON.stringify({ message: 'This action is forbidden.', code: 'forbidden' }), {
            status: 403,
            headers: { 'Content-Type': 'application/json' },
          })
        : undefined,
    );
    await userEvent.click(within(row('brief.txt')).getByRole('button', { name: 'Actions for brief.txt' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    expect(await screen.findByText('Whooops, something went wrong :(')).toBeInTheDocument();
    expect(await screen.findByText('Shared by Olivia Owner · view only')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Upload' })).not.toBeInTheDocument();
    // A refusal of one change is no lost session.
    expect(currentUrl(router)).toBe(`/platform/shared-with-me/${server.studio.id}`);
    expect(row('brief.txt')).toBeInTheDocument();
  });

  it('shows the team’s folders in the tree and keeps moves inside the team', async () => {
    await openTeam('can_edit');
    const tree = await screen.findByRole('tree', { name: 'Shared with me' });
    expect(await within(tree).findByRole('button', { name: 'Renders' })).toBeInTheDocument();
    await userEvent.click(within(row('brief.txt')).getByRole('button', { name: 'Actions for brief.txt' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Move' }));
    const dialog = await screen.findByRole('dialog', { name: /Move/ });
    // The list of teams above is no place for an item.
    expect(within(dialog).getByRole('button', { name: 'Shared with me' })).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Show the folders in Studio' }));
    expect(within(dialog).getByRole('button', { name: 'Renders' })).toBeEnabled();
  });
});
