import type { ItemResource, UserResource } from '@atelier/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { selectionStore } from '../../../src/features/files/selection-store';
import { buildUser } from '../../fixtures';
import { currentUrl, renderApp } from '../../render-app';
import { buildItem, fakeFilesServer } from './fake-files-server';

let server: ReturnType<typeof fakeFilesServer>;
let projects: ItemResource;
let invoices: ItemResource;
let report: ItemResource;

beforeEach(() => {
  projects = buildItem('folder', 'Projects', { items: 0 });
  invoices = buildItem('folder', 'Invoices', { items: 3 });
  report = buildItem('file', 'report.txt', { filesize: 2048 });
  server = fakeFilesServer([projects, invoices, report]);
  vi.stubGlobal('fetch', server.fetch);
  // Overlays and the clipboard live in module stores: each test starts with none open.
});

function userWith(restrictions: Partial<UserResource['meta']['restrictions']> = {}): UserResource {
  const user = buildUser();
  return { ...user, meta: { ...user.meta, restrictions: { ...user.meta.restrictions, ...restrictions } } };
}

const row = (name: string) =>
  screen.getAllByTestId('item-row').find((element) => within(element).queryByText(name))!;

async function openFiles(path = '/platform/files', user = userWith()) {
  const view = await renderApp(path, { user });
  await screen.findByText('report.txt');
  return view;
}

// Each case renders the whole app; on a busy machine that alone can take seconds.
describe('file manager', { timeout: 30_000 }, () => {
  it('lists the open folder in a list by default, newest first, with sizes and item counts', async () => {
    await openFiles();
    expect(screen.getAllByTestId('item-row')).toHaveLength(3);
    expect(within(row('Invoices')).getAllByText('3 items').length).toBeGreaterThan(0);
    expect(within(row('report.txt')).getAllByText(/2 KB/).length).toBeGreaterThan(0);
    const [browse] = server.calls('GET', '/api/browse/folders/all');
    expect(browse?.query.get('sort')).toBe('created_at');
    expect(browse?.query.get('direction')).toBe('desc');
  });

  it('moves between items with the arrow keys and opens a folder with Enter', async () => {
    const user = userEvent.setup();
    const { router } = await openFiles();
    row('Projects').focus();
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(row('Invoices')).toHaveFocus());
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(row('report.txt')).toHaveFocus());
    await user.keyboard('{ArrowDown}');
    await user.keyboard('{ArrowUp}');
    await waitFor(() => expect(row('Invoices')).toHaveFocus());
    await user.keyboard('{Enter}');
    await waitFor(() => expect(currentUrl(router)).toBe(`/platform/files/${invoices.id}`));
  });

  it('says so when the folder does not exist (or is not the user’s)', async () => {
    await renderApp('/platform/files/not-a-folder-of-mine', { user: userWith() });
    expect(await screen.findByText('This folder is not here')).toBeInTheDocument();
  });

  it('remembers grid view and the sort order in this browser', async () => {
    const user = userEvent.setup();
    const first = await openFiles();
    await user.click(screen.getByRole('button', { name: 'Grid view' }));
    expect(await screen.findAllByTestId('item-card')).toHaveLength(3);
    await user.click(screen.getByRole('button', { name: 'Sort by' }));
    await user.click(await screen.findByRole('menuitemradio', { name: 'Name' }));
    await waitFor(() =>
      expect(server.requests.some((request) => request.query.get('sort') === 'name')).toBe(true),
    );
    first.unmount();

    server.requests.length = 0;
    await openFiles();
    expect(screen.getAllByTestId('item-card')).toHaveLength(3);
    expect(server.calls('GET', '/api/browse/folders/all')[0]?.query.get('sort')).toBe('name');
  });

  it('marks a favourite at once and puts it back with the generic alert when the server refuses', async () => {
    const user = userEvent.setup();
    let refuse!: () => void;
    server.answer((request) =>
      request.path === '/api/favourites'
        ? new Promise<Response>(
            (resolve) =>
              (refuse = () => resolve(new Response('{"message":"x","code":"internal"}', { status: 500 }))),
          )
        : undefined,
    );
    await openFiles();
    const star = within(row('report.txt')).getByRole('button', { name: 'Add to favourites' });
    await user.click(star);

    expect(within(row('report.txt')).getByRole('button', { name: 'Remove from favourites' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await act(async () => refuse());
    expect(await screen.findByText('Whooops, something went wrong :(')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: "That's horrible!" }));
    expect(within(row('report.txt')).getByRole('button', { name: 'Add to favourites' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
  });

  it('selects several items in select mode, and toggling the mode clears the clipboard', async () => {
    const user = userEvent.setup();
    await openFiles();
    await user.click(screen.getByRole('button', { name: 'Select' }));
    await user.click(row('report.txt'));
    await user.click(row('Invoices'));
    expect(screen.getByRole('toolbar', { name: 'Selected items' })).toHaveTextContent('2 selected');

    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('toolbar', { name: 'Selected items' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Select' }));
    expect(screen.queryByRole('toolbar', { name: 'Selected items' })).not.toBeInTheDocument();
  });

  it('moves the selection when it is dragged onto a folder', async () => {
    await openFiles();
    const data = new Map<string, string>();
    const dataTransfer = {
      get types() {
        return [...data.keys()];
      },
      setData: (type: string, value: string) => data.set(type, value),
      getData: (type: string) => data.get(type) ?? '',
      dropEffect: 'none',
      effectAllowed: 'all',
    };
    fireEvent.dragStart(row('report.txt'), { dataTransfer });
    fireEvent.dragOver(row('Projects'), { dataTransfer });
    fireEvent.drop(row('Projects'), { dataTransfer });

    await waitFor(() => expect(server.calls('POST', '/api/move')).toHaveLength(1));
    expect(server.calls('POST', '/api/move')[0]?.body).toEqual({
      to_id: projects.id,
      items: [{ id: report.id, type: 'file' }],
    });
    await waitFor(() => expect(screen.queryByText('report.txt')).not.toBeInTheDocument());
  });

  it('moves through the dialog, which offers neither the current folder nor a moved folder or its inside', async () => {
    const user = userEvent.setup();
    const inner = buildItem('folder', 'Drafts', { parent_id: projects.id });
    server.items.set(inner.id, inner);
    await openFiles();
    await user.click(screen.getByRole('button', { name: 'Select' }));
    await user.click(row('Projects'));
    await user.click(row('report.txt'));
    await user.click(screen.getByRole('button', { name: 'Move' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move to…' });
    const tree = within(dialog).getByRole('tree');
    await user.click(within(tree).getByRole('button', { name: 'Show the folders in Projects' }));

    expect(within(tree).getByRole('button', { name: 'My files' })).toBeDisabled();
    expect(within(tree).getByRole('button', { name: 'Projects' })).toBeDisabled();
    expect(within(tree).getByRole('button', { name: 'Drafts' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Move here' })).toBeDisabled();
    await user.click(within(tree).getByRole('button', { name: 'Invoices' }));
    await user.click(within(dialog).getByRole('button', { name: 'Move here' }));

    await waitFor(() => expect(server.calls('POST', '/api/move')).toHaveLength(1));
    expect(server.calls('POST', '/api/move')[0]?.body).toEqual({
      to_id: invoices.id,
      items: [
        { id: projects.id, type: 'folder' },
        { id: report.id, type: 'file' },
      ],
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getAllByTestId('item-row')).toHaveLength(1);
  });

  it('says what a move did and puts the items back where they were on Undo', async () => {
    const user = userEvent.setup();
    await openFiles();
    await user.click(screen.getByRole('button', { name: 'Select' }));
    await user.click(row('report.txt'));
    await user.click(screen.getByRole('button', { name: 'Move' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move to…' });
    await user.click(within(within(dialog).getByRole('tree')).getByRole('button', { name: 'Invoices' }));
    await user.click(within(dialog).getByRole('button', { name: 'Move here' }));

    const toast = await screen.findByText('\u201creport.txt\u201d was moved.');
    await user.click(within(toast.closest('li')!).getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(server.calls('POST', '/api/move')).toHaveLength(2));
    expect(server.calls('POST', '/api/move')[1]?.body).toEqual({
      to_id: null,
      items: [{ id: report.id, type: 'file' }],
    });
    expect(await screen.findByText('report.txt')).toBeInTheDocument();
  });

  it('says a delete went to the trash, with Undo that restores it in place and the way to the trash', async () => {
    const user = userEvent.setup();
    await openFiles();
    await user.click(within(row('report.txt')).getByRole('button', { name: 'Actions for report.txt' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));

    const toast = (await screen.findByText('\u201creport.txt\u201d was moved to the trash.')).closest('li')!;
    expect(within(toast).getByRole('link', { name: 'Open trash' })).toHaveAttribute(
      'href',
      '/platform/trash',
    );
    await waitFor(() => expect(screen.queryByText('report.txt')).not.toBeInTheDocument());
    await user.click(within(toast).getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(server.calls('POST', '/api/trash/restore')).toHaveLength(1));
    expect(server.calls('POST', '/api/trash/restore')[0]?.body).toEqual({
      to_home: false,
      items: [{ id: report.id, type: 'file' }],
    });
    expect(await screen.findByText('report.txt')).toBeInTheDocument();
  });

  it('acts on the item from its menu without the click also picking or opening the row', async () => {
    const user = userEvent.setup();
    await openFiles();
    await user.click(within(row('report.txt')).getByRole('button', { name: 'Actions for report.txt' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Rename' }));

    const dialog = await screen.findByRole('dialog', { name: 'Rename file' });
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('report.txt');
    expect(selectionStore.get().clipboard).toEqual([]);
  });

  it('creates a folder from the new-folder input, which takes the focus shortly after it opens', async () => {
    const user = userEvent.setup();
    await openFiles();
    await user.click(screen.getByRole('button', { name: 'New folder' }));
    const input = await screen.findByRole('textbox', { name: 'Folder name' });
    await waitFor(() => expect(input).toHaveFocus());
    await user.type(input, 'Contracts{Enter}');

    await waitFor(() => expect(server.calls('POST', '/api/create-folder')).toHaveLength(1));
    expect(server.calls('POST', '/api/create-folder')[0]?.body).toEqual({
      name: 'Contracts',
      emoji: null,
      parent_id: null,
    });
    await waitFor(() => expect(row('Contracts')).toBeInTheDocument());
    expect(screen.queryByRole('textbox', { name: 'Folder name' })).not.toBeInTheDocument();
  });

  it('does not focus the new-folder input on a phone', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: true,
      media: query,
      addEventListener() {},
      removeEventListener() {},
    }));
    const user = userEvent.setup();
    await openFiles();
    await user.click(screen.getByRole('button', { name: 'New folder' }));
    const input = await screen.findByRole('textbox', { name: 'Folder name' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(input).not.toHaveFocus();
  });

  it('refuses to create a folder or download when the account may not, with the temporarily-disabled alerts', async () => {
    const user = userEvent.setup();
    await openFiles('/platform/files', userWith({ canCreateFolder: false, canDownload: false }));
    await user.click(screen.getByRole('button', { name: 'New folder' }));
    expect(await screen.findByText('Creating folders is temporarily disabled')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Folder name' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /That/ }));

    await user.click(within(row('report.txt')).getByRole('button', { name: 'Actions for report.txt' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Download' }));
    expect(await screen.findByText('Downloading is temporarily disabled')).toBeInTheDocument();
  });

  it('uploads into the open folder: the file joins the listing and the folder count rises in its parent', async () => {
    const user = userEvent.setup();
    const { router } = await openFiles();
    await user.dblClick(row('Projects'));
    await waitFor(() => expect(currentUrl(router)).toBe(`/platform/files/${projects.id}`));
    expect(await screen.findByText('This folder is empty')).toBeInTheDocument();

    const input = screen.getByTestId('upload-files-input');
    await user.upload(input, new File(['hello'], 'site plan.pdf', { type: 'application/pdf' }));
    expect(await screen.findByText('site-plan.pdf')).toBeInTheDocument();
    const [chunk] = server.calls('POST', '/api/upload/chunks');
    expect((chunk?.body as FormData).get('parent_id')).toBe(projects.id);

    await act(() => router.navigate('/platform/files'));
    await waitFor(() => expect(within(row('Projects')).getAllByText('1 item').length).toBeGreaterThan(0));
  });

  it('refuses a zero-byte upload with the toast naming the file', async () => {
    const user = userEvent.setup();
    await openFiles();
    await user.upload(screen.getByTestId('upload-files-input'), new File([], 'blank.txt'));
    expect(await screen.findByText("The file blank.txt can't be uploaded")).toBeInTheDocument();
    expect(server.calls('POST', '/api/upload/chunks')).toHaveLength(0);
  });

  it('empties the trash after confirmation and says so', async () => {
    const user = userEvent.setup();
    server.trash.set(report.id, report);
    await renderApp('/platform/trash', { user: userWith() });
    expect(await screen.findByText('report.txt')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Empty trash' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Empty trash' }));

    expect(await screen.findByText('Your trash was successfully cleared.')).toBeInTheDocument();
    expect(server.calls('POST', '/api/trash/dump')[0]?.body).toEqual({ _method: 'delete' });
    expect(await screen.findByText('Your trash is empty')).toBeInTheDocument();
  });

  it('finds items from the spotlight and opens the chosen folder with the keyboard', async () => {
    const user = userEvent.setup();
    const { router } = await openFiles();
    await user.keyboard('{Control>}k{/Control}');
    const search = await screen.findByRole('combobox');
    await user.type(search, 'o');
    expect(await screen.findByRole('option', { name: /Invoices/ })).toBeInTheDocument();
    const options = screen.getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      expect.stringContaining('Projects'),
      expect.stringContaining('Invoices'),
      expect.stringContaining('report.txt'),
    ]);
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowDown}');
    expect(options[1]).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Enter}');

    await waitFor(() => expect(currentUrl(router)).toBe(`/platform/files/${invoices.id}`));
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
  });

  it('says so when a search fails instead of reporting no match', async () => {
    const user = userEvent.setup();
    server.answer((request) =>
      request.path === '/api/search'
        ? new Response('{"message":"x","code":"internal"}', { status: 500 })
        : undefined,
    );
    await openFiles();
    await user.keyboard('{Control>}k{/Control}');
    await user.type(await screen.findByRole('combobox'), 'report');
    expect(await screen.findByRole('alert')).toHaveTextContent('The search did not go through.');
    expect(screen.queryByText(/Nothing is named like/)).not.toBeInTheDocument();
  });
});
