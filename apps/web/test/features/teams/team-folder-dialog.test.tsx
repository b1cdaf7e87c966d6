import type { ItemResource, UserResource } from '@atelier/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildUser } from '../../fixtures';
import { currentUrl, renderApp } from '../../render-app';
import { buildItem } from '../files/fake-files-server';
import { fakeTeamServer } from './fake-team-server';

let server: ReturnType<typeof fakeTeamServer>;
let archive: ItemResource;

beforeEach(() => {
  server = fakeTeamServer();
  archive = buildItem('folder', 'Archive');
  server.items.set(archive.id, archive);
  vi.stubGlobal('fetch', server.fetch);
});

const row = (name: string) =>
  screen.getAllByTestId('item-row').find((element) => within(element).queryByText(name))!;

async function menuOf(name: string) {
  await userEvent.click(within(row(name)).getByRole('button', { name: `Actions for ${name}` }));
  return screen.findByRole('menu');
}

function withoutTeams(): UserResource {
  const user = buildUser();
  return {
    ...user,
    meta: { ...user.meta, restrictions: { ...user.meta.restrictions, canCreateTeamFolder: false } },
  };
}

describe('making a team folder from My files', { timeout: 30_000 }, () => {
  it('marks team folders in My files, and offers to convert only the others', async () => {
    await renderApp('/platform/files', { user: buildUser() });
    await screen.findAllByTestId('item-row');
    expect(await within(row('Studio')).findByTestId('team-badge')).toBeInTheDocument();
    expect(within(row('Archive')).queryByTestId('team-badge')).not.toBeInTheDocument();
    expect(
      within(await menuOf('Studio')).queryByRole('menuitem', { name: 'Convert to team folder' }),
    ).toBeNull();
    await userEvent.keyboard('{Escape}');
    expect(
      within(await menuOf('Archive')).getByRole('menuitem', { name: 'Convert to team folder' }),
    ).toBeVisible();
  });

  it('converts a folder with its invitations and opens its team', async () => {
    const { router } = await renderApp('/platform/files', { user: buildUser() });
    await screen.findAllByTestId('item-row');
    await userEvent.click(
      within(await menuOf('Archive')).getByRole('menuitem', { name: 'Convert to team folder' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Share “Archive” with a team' });
    expect(within(dialog).queryByLabelText('Name')).not.toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Invite by e-mail'), 'pat@example.com{Enter}');
    await userEvent.selectOptions(within(dialog).getByLabelText('Permission of pat@example.com'), 'can_edit');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Share with the team' }));

    await waitFor(() => expect(currentUrl(router)).toBe(`/platform/team-folders/${archive.id}`));
    expect(server.calls('POST', `/api/teams/folders/${archive.id}/convert`)[0]?.body).toEqual({
      invitations: [{ email: 'pat@example.com', permission: 'can_edit' }],
    });
    expect(await screen.findByText('“Archive” is a team folder now.')).toBeInTheDocument();
  });

  it('refuses with the temporarily-disabled alert while the account may not make team folders', async () => {
    await renderApp('/platform/files', { user: withoutTeams() });
    await screen.findAllByTestId('item-row');
    await userEvent.click(screen.getByRole('button', { name: 'Upload' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'New team folder' }));
    expect(await screen.findByText('Creating team folders is temporarily disabled')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'New team folder' })).not.toBeInTheDocument();
  });
});
