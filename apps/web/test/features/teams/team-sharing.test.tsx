import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildUser } from '../../fixtures';
import { renderApp } from '../../render-app';
import { fakeOwnerShareServer } from '../sharing/fake-share-server';
import { fakeTeamServer } from './fake-team-server';

let team: ReturnType<typeof fakeTeamServer>;
let shares: ReturnType<typeof fakeOwnerShareServer>;

beforeEach(() => {
  team = fakeTeamServer();
  shares = fakeOwnerShareServer(team.files);
  vi.stubGlobal('fetch', team.fetch);
});

const row = (name: string) =>
  screen.getAllByTestId('item-row').find((element) => within(element).queryByText(name))!;

/** The owner's view of the team folder, with the share dialog of its file open. */
async function shareBrief(entry: string) {
  const user = userEvent.setup();
  await renderApp(`/platform/team-folders/${team.studio.id}`, { user: buildUser() });
  await screen.findByText('brief.txt');
  await user.click(within(row('brief.txt')).getByRole('button', { name: 'Actions for brief.txt' }));
  await user.click(await screen.findByRole('menuitem', { name: entry }));
  return { user, dialog: await screen.findByRole('dialog', { name: 'Share “brief.txt”' }) };
}

describe("sharing from the owner's team view", { timeout: 30_000 }, () => {
  it('marks the row as shared once the link is made, and unmarks it once revoked', async () => {
    const { user, dialog } = await shareBrief('Share');
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    expect(await within(dialog).findByLabelText('Link')).toBeInTheDocument();
    expect(within(row('brief.txt')).getByTestId('shared-badge')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Revoke link' }));
    const confirm = within(dialog).getByRole('alertdialog', { name: 'Revoke this link?' });
    await user.click(within(confirm).getByRole('button', { name: 'Revoke link' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(within(row('brief.txt')).queryByTestId('shared-badge')).not.toBeInTheDocument();
  });

  it('opens the link the item already has when one was made elsewhere meanwhile', async () => {
    const { user, dialog } = await shareBrief('Share');
    const existing = shares.share(team.brief);
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));

    expect(await within(dialog).findByLabelText('Link')).toHaveValue(existing.link);
    expect(shares.calls('POST', '/api/share')).toHaveLength(1);
    expect(within(row('brief.txt')).getByTestId('shared-badge')).toBeInTheDocument();
  });

  it('says the item already has a link when the listings do not show which', async () => {
    team.answer((request) =>
      request.method === 'POST' && request.path === '/api/share'
        ? new Response(
            JSON.stringify({
              message: 'This item already has a link. Edit that link or revoke it first.',
              code: 'validation_failed',
              errors: { id: ['This item already has a link. Edit that link or revoke it first.'] },
            }),
            { status: 422, headers: { 'Content-Type': 'application/json' } },
          )
        : undefined,
    );
    const { user, dialog } = await shareBrief('Share');
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'This item already has a link. Edit that link or revoke it first.',
    );
  });
});
