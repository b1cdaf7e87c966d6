import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { currentUrl, renderApp } from '../../render-app';
import { findCachedItems } from '../../../src/features/files/listing-cache';
import { sharingKeys } from '../../../src/features/sharing/sharing-api';
import { formatDateTime } from '../../../src/lib/format-date';
import { ENDED_AT, EXPIRES_AT, fakeVisitServer } from './fake-share-server';

let visit: ReturnType<typeof fakeVisitServer>;

function serve(options: Parameters<typeof fakeVisitServer>[0] = {}) {
  visit = fakeVisitServer(options);
  vi.stubGlobal('fetch', visit.fetch);
  return visit;
}

const rows = () => screen.getAllByTestId('item-row');
const row = (name: string) => rows().find((element) => within(element).queryByText(name))!;

// An anonymous visitor: no account session, only the share's own.
describe('share pages', { timeout: 30_000 }, () => {
  it('opens a folder share on its folder, with the sharer named and nothing to change for a visitor', async () => {
    serve();
    const { router } = await renderApp(`/share/${visit.token}`);
    expect(await screen.findByText('readme.txt')).toBeInTheDocument();
    expect(currentUrl(router)).toBe(`/share/${visit.token}/files`);
    expect(screen.getByText('Ada Lovelace')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Client handover' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download all' })).toHaveAttribute(
      'href',
      `/api/sharing/zip/${visit.token}`,
    );
    expect(screen.queryByRole('button', { name: 'Upload' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New folder' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add to favourites' })).not.toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(within(row('readme.txt')).getByRole('button', { name: 'Actions for readme.txt' }));
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((entry) => entry.textContent),
    ).toEqual(['Preview', 'Download', 'Versions']);
  });

  it('shows a visitor a file’s versions through the link, to open and download but not to change', async () => {
    serve();
    const user = userEvent.setup();
    await renderApp(`/share/${visit.token}/files`);
    await screen.findByText('readme.txt');
    await user.click(within(row('readme.txt')).getByRole('button', { name: 'Actions for readme.txt' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Versions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Details and versions' });
    expect(await within(dialog).findByText('Saved by Ada Lovelace · 512 B')).toBeInTheDocument();
    expect(within(dialog).getByText('Saved by someone with the link · 300 B')).toBeInTheDocument();
    expect(visit.calls('GET', `/api/sharing/versions/${visit.readme.id}/${visit.token}`)).toHaveLength(1);
    expect(visit.requests.some((request) => request.path.startsWith('/api/files/'))).toBe(false);
    expect(within(dialog).getAllByRole('button', { name: 'Download' })).toHaveLength(2);
    expect(within(dialog).queryByRole('button', { name: 'Restore' })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it('lets an editor restore and delete a file’s versions through the link', async () => {
    serve({ permission: 'editor' });
    const user = userEvent.setup();
    await renderApp(`/share/${visit.token}/files`);
    await screen.findByText('readme.txt');
    await user.click(within(row('readme.txt')).getByRole('button', { name: 'Actions for readme.txt' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Versions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Details and versions' });
    await within(dialog).findByText('Saved by someone with the link · 300 B');
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await waitFor(() =>
      expect(
        visit.calls('POST', `/api/sharing/version/${visit.readme.id}/v-old/restore/${visit.token}`),
      ).toHaveLength(1),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(
        visit.calls('DELETE', `/api/sharing/version/${visit.readme.id}/v-old/${visit.token}`),
      ).toHaveLength(1),
    );
    await waitFor(() => expect(within(dialog).getByText('0 versions')).toBeInTheDocument());
  });

  it('browses into a folder of the share and back through the breadcrumb', async () => {
    serve();
    const user = userEvent.setup();
    const { router } = await renderApp(`/share/${visit.token}/files`);
    await screen.findByText('readme.txt');
    await user.dblClick(row('Drawings'));
    await waitFor(() => expect(currentUrl(router)).toBe(`/share/${visit.token}/files/${visit.drawings.id}`));
    expect(await screen.findByText('plan.txt')).toBeInTheDocument();
    expect(visit.calls('GET', `/api/sharing/folders/${visit.drawings.id}/${visit.token}`)).toHaveLength(1);
    await user.click(
      within(screen.getByRole('navigation', { name: 'Folder path' })).getByRole('link', {
        name: 'Client handover',
      }),
    );
    expect(await screen.findByText('readme.txt')).toBeInTheDocument();
  });

  it('searches the share from its header, through the share, and opens a found folder inside it', async () => {
    serve();
    const user = userEvent.setup();
    const { router } = await renderApp(`/share/${visit.token}/files`);
    await screen.findByText('readme.txt');
    await user.click(screen.getByRole('button', { name: 'Open search' }));
    await user.type(await screen.findByRole('combobox', { name: 'Search the shared folder' }), 'a');
    expect(await screen.findByRole('option', { name: /plan\.txt/ })).toBeInTheDocument();
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      expect.stringContaining('Drawings'),
      expect.stringContaining('readme.txt'),
      expect.stringContaining('plan.txt'),
    ]);
    expect(visit.calls('GET', `/api/sharing/search/${visit.token}`).at(-1)?.query.get('query')).toBe('a');
    expect(visit.requests.some((request) => request.path === '/api/search')).toBe(false);

    await user.click(screen.getByRole('option', { name: /Drawings/ }));
    await waitFor(() => expect(currentUrl(router)).toBe(`/share/${visit.token}/files/${visit.drawings.id}`));
    expect(await screen.findByText('plan.txt')).toBeInTheDocument();
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
  });

  it('opens a file found with Ctrl+K in the preview, inside its folder of the share', async () => {
    serve();
    const user = userEvent.setup();
    const { router } = await renderApp(`/share/${visit.token}/files`);
    await screen.findByText('readme.txt');
    await user.keyboard('{Control>}k{/Control}');
    await user.type(await screen.findByRole('combobox'), 'plan');
    await screen.findByRole('option', { name: /plan\.txt/ });
    await user.keyboard('{Enter}');

    await waitFor(() => expect(currentUrl(router)).toBe(`/share/${visit.token}/files/${visit.drawings.id}`));
    expect(await screen.findByRole('dialog', { name: 'plan.txt' })).toBeInTheDocument();
    await waitFor(() =>
      expect(visit.calls('GET', `/file/${visit.plan.id}/shared/${visit.token}`)).toHaveLength(1),
    );
  });

  it('sends an unknown token to NotFound', async () => {
    serve({ state: 'unknown' });
    await renderApp(`/share/${visit.token}`);
    expect(await screen.findByRole('heading', { name: 'This page does not exist' })).toBeInTheDocument();
  });

  it('says plainly when the link has expired, since when and whom to ask', async () => {
    serve({ state: 'expired' });
    await renderApp(`/share/${visit.token}/files`);
    expect(await screen.findByRole('heading', { name: 'This link has expired' })).toBeInTheDocument();
    expect(
      screen.getByText(
        `It stopped working on ${formatDateTime(ENDED_AT, 'en')}, as Ada Lovelace set it to. If you still need the files, ask Ada Lovelace for a new link.`,
      ),
    ).toBeInTheDocument();
    expect(visit.calls('GET', `/api/sharing/folders/all/${visit.token}`)).toHaveLength(0);
  });

  it('says a revoked link was turned off, by whom and when, so the visitor knows whom to ask', async () => {
    serve({ state: 'revoked' });
    await renderApp(`/share/${visit.token}`);
    expect(await screen.findByRole('heading', { name: 'This link was turned off' })).toBeInTheDocument();
    expect(
      screen.getByText(
        `Ada Lovelace stopped sharing it on ${formatDateTime(ENDED_AT, 'en')}. If you still need the files, ask Ada Lovelace for a new link.`,
      ),
    ).toBeInTheDocument();
  });

  it('says until when the link works, and downloads the open subfolder rather than the whole share', async () => {
    serve();
    const user = userEvent.setup();
    await renderApp(`/share/${visit.token}/files`);
    await screen.findByText('readme.txt');
    expect(screen.getByText(`Available until ${formatDateTime(EXPIRES_AT, 'en')}`)).toBeInTheDocument();
    await user.dblClick(row('Drawings'));
    expect(await screen.findByText('plan.txt')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download this folder' })).toHaveAttribute(
      'href',
      `/api/sharing/zip/${visit.token}?items=${visit.drawings.id}|folder`,
    );
  });

  it('asks for the password of a protected share, refuses a wrong one, then opens the folder', async () => {
    serve({ protected: true });
    const user = userEvent.setup();
    const { router } = await renderApp(`/share/${visit.token}/files`);
    expect(await screen.findByRole('heading', { name: 'This folder is protected' })).toBeInTheDocument();
    expect(currentUrl(router)).toBe(`/share/${visit.token}/authenticate`);
    expect(visit.calls('GET', `/api/sharing/folders/all/${visit.token}`)).toHaveLength(0);
    expect(screen.queryByRole('button', { name: 'Open search' })).not.toBeInTheDocument();

    await user.type(screen.getByLabelText('Password'), 'guess');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('That password is not right.')).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), visit.password);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('readme.txt')).toBeInTheDocument();
    expect(currentUrl(router)).toBe(`/share/${visit.token}/files`);
    expect(visit.calls('POST', `/api/sharing/authenticate/${visit.token}`).at(-1)?.body).toEqual({
      password: visit.password,
    });
    expect(screen.getByRole('button', { name: 'Open search' })).toBeInTheDocument();
  });

  it('shows the throttle message with its seconds after too many wrong passwords', async () => {
    serve({ protected: true });
    visit.wrongAnswers = 5;
    const user = userEvent.setup();
    await renderApp(`/share/${visit.token}/authenticate`);
    await user.type(await screen.findByLabelText('Password'), visit.password);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many wrong passwords. Try again in 42 seconds.',
    );
    expect(visit.unlocked).toBe(false);
  });

  it('goes back to the password when the share session ends while browsing (a new password)', async () => {
    serve({ protected: true });
    visit.unlocked = true;
    const user = userEvent.setup();
    const { router } = await renderApp(`/share/${visit.token}/files`);
    expect(await screen.findByText('readme.txt')).toBeInTheDocument();

    visit.unlocked = false;
    await user.dblClick(row('Drawings'));
    expect(await screen.findByRole('heading', { name: 'This folder is protected' })).toBeInTheDocument();
    expect(currentUrl(router)).toBe(`/share/${visit.token}/authenticate`);
  });

  it('closes the search and asks for the password when the share session ends during a search', async () => {
    serve({ protected: true });
    visit.unlocked = true;
    const user = userEvent.setup();
    await renderApp(`/share/${visit.token}/files`);
    await screen.findByText('readme.txt');
    await user.click(screen.getByRole('button', { name: 'Open search' }));

    visit.unlocked = false;
    await user.type(await screen.findByRole('combobox'), 'plan');
    expect(await screen.findByRole('heading', { name: 'This folder is protected' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Search' })).not.toBeInTheDocument();

    // Unlocked again, the page is the folder, not a search left open from before.
    await user.type(screen.getByLabelText('Password'), visit.password);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('readme.txt')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Search' })).not.toBeInTheDocument();
  });

  it('says the link was turned off once it is revoked while the visitor is on the page', async () => {
    serve();
    const user = userEvent.setup();
    await renderApp(`/share/${visit.token}/files`);
    expect(await screen.findByText('readme.txt')).toBeInTheDocument();
    visit.state = 'revoked';
    await user.dblClick(row('Drawings'));
    expect(await screen.findByRole('heading', { name: 'This link was turned off' })).toBeInTheDocument();
  });

  it('opens a file share on the file, with its preview and download through the token', async () => {
    serve({ itemType: 'file' });
    const { router } = await renderApp(`/share/${visit.token}`);
    expect(await screen.findByRole('heading', { name: 'brief.txt' })).toBeInTheDocument();
    expect(currentUrl(router)).toBe(`/share/${visit.token}/file`);
    expect(screen.queryByRole('button', { name: 'Open search' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download' })).toHaveAttribute(
      'href',
      `/file/${visit.root.id}/shared/${visit.token}?download=1`,
    );
    // The text preview reads the file through the share's address.
    await waitFor(() =>
      expect(visit.calls('GET', `/file/${visit.root.id}/shared/${visit.token}`)).toHaveLength(1),
    );
  });

  it('shows a shared file’s versions on its page, to open and download through the link', async () => {
    serve({ itemType: 'file' });
    const user = userEvent.setup();
    await renderApp(`/share/${visit.token}/file`);
    await screen.findByRole('heading', { name: 'brief.txt' });
    await user.click(screen.getByRole('button', { name: 'Versions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Details and versions' });
    expect(await within(dialog).findByText('Saved by someone with the link · 300 B')).toBeInTheDocument();
    expect(visit.calls('GET', `/api/sharing/versions/${visit.root.id}/${visit.token}`)).toHaveLength(1);
    expect(within(dialog).queryByRole('button', { name: 'Restore' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('lets an editor create a folder and upload into the share, at the shared folder', async () => {
    serve({ permission: 'editor' });
    const user = userEvent.setup();
    await renderApp(`/share/${visit.token}/files`);
    expect(await screen.findByText('readme.txt')).toBeInTheDocument();
    expect(screen.getByText('Shared with you · you can edit')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'New folder' }));
    await user.type(await screen.findByRole('textbox', { name: 'Folder name' }), 'Feedback{Enter}');
    await waitFor(() =>
      expect(visit.calls('POST', `/api/sharing/create-folder/${visit.token}`)[0]?.body).toEqual({
        name: 'Feedback',
        emoji: null,
        parent_id: visit.root.id,
      }),
    );
    expect(await screen.findByText('Feedback')).toBeInTheDocument();

    await user.upload(
      screen.getByTestId('upload-files-input'),
      new File(['notes'], 'site notes.txt', { type: 'text/plain' }),
    );
    expect(await screen.findByText('site-notes.txt')).toBeInTheDocument();
    const [chunk] = visit.calls('POST', `/api/sharing/upload/chunks/${visit.token}`);
    expect((chunk?.body as FormData).get('parent_id')).toBe(visit.root.id);
  });

  it("replaces a file in place when the editor chooses to: the row takes the new size, the folder's count stays", async () => {
    serve({ permission: 'editor' });
    const user = userEvent.setup();
    const { queryClient } = await renderApp(`/share/${visit.token}/files`);
    await screen.findByText('readme.txt');
    expect(within(row('readme.txt')).getAllByText('512 B').length).toBeGreaterThan(0);

    await user.upload(screen.getByTestId('upload-files-input'), new File(['a'.repeat(3000)], 'readme.txt'));
    const prompt = await screen.findByRole('dialog', { name: 'A file with this name is already here' });
    await user.click(within(prompt).getByRole('button', { name: 'Replace' }));

    expect((await within(row('readme.txt')).findAllByText('3 KB')).length).toBeGreaterThan(0);
    expect(rows().filter((element) => within(element).queryByText('readme.txt'))).toHaveLength(1);
    const root = findCachedItems(queryClient, sharingKeys.visit(visit.token), [visit.root.id]).get(
      visit.root.id,
    );
    expect(root?.attributes.items).toBe(visit.root.attributes.items);
  });
});
