import type { ItemResource } from '@atelier/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildUser } from '../../fixtures';
import { renderApp } from '../../render-app';
import { buildItem } from '../files/fake-files-server';
import { buildRequest, fakeOwnerRequestServer } from './fake-request-server';

let server: ReturnType<typeof fakeOwnerRequestServer>;
let invoices: ItemResource;

beforeEach(() => {
  invoices = buildItem('folder', 'Invoices', { items: 3 });
  server = fakeOwnerRequestServer([invoices, buildItem('file', 'report.txt')]);
  vi.stubGlobal('fetch', server.fetch);
});

const row = (name: string) =>
  screen.getAllByTestId('item-row').find((element) => within(element).queryByText(name))!;

describe('upload request dialog', { timeout: 30_000 }, () => {
  it('asks for files into a folder from its menu, with the folder’s name, notes, an address and a lifetime', async () => {
    await renderApp('/platform/files', { user: buildUser() });
    await screen.findByText('report.txt');
    const user = userEvent.setup();
    await user.click(within(row('Invoices')).getByRole('button', { name: 'Actions for Invoices' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Request files' }));

    const dialog = await screen.findByRole('dialog', { name: 'Request files for “Invoices”' });
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Invoices');
    const lifetime = within(dialog).getByLabelText('Open for');
    expect(lifetime).toHaveDisplayValue('3 days');
    expect(
      within(lifetime)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['1 hour', '1 day', '3 days', '7 days', '30 days']);
    await user.type(within(dialog).getByLabelText('Notes for them'), 'The March ones, please.');
    await user.type(within(dialog).getByLabelText('Their e-mail (optional)'), 'Client@Example.com');
    await user.selectOptions(lifetime, '7 days');
    await user.click(within(dialog).getByRole('button', { name: 'Create request' }));

    await waitFor(() => expect(server.calls('POST', '/api/file-request')).toHaveLength(1));
    expect(server.calls('POST', '/api/file-request')[0]?.body).toEqual({
      folder_id: invoices.id,
      name: 'Invoices',
      notes: 'The March ones, please.',
      email: 'client@example.com',
      expires_in: 168,
    });
    const [created] = server.requests.values();
    expect(await within(dialog).findByLabelText('Link')).toHaveValue(created!.attributes.link);
    expect(within(dialog).getByText('The link was e-mailed to client@example.com.')).toBeInTheDocument();
    expect(await within(dialog).findByRole('img', { name: 'QR code of the link' })).toHaveAttribute(
      'src',
      expect.stringMatching(/^data:image\/svg\+xml/),
    );
    expect(within(dialog).getByRole('link', { name: 'Open folder' })).toHaveAttribute(
      'href',
      `/platform/files/${invoices.id}`,
    );
  });

  it('makes a new folder from the upload menu, which needs a name first', async () => {
    await renderApp('/platform/files', { user: buildUser() });
    await screen.findByText('report.txt');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Upload request' }));

    const dialog = await screen.findByRole('dialog', { name: 'New upload request' });
    expect(within(dialog).getByLabelText('Name')).toHaveValue('');
    await user.click(within(dialog).getByRole('button', { name: 'Create request' }));
    expect(await within(dialog).findByText('This field is required.')).toBeInTheDocument();
    expect(server.calls('POST', '/api/file-request')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Name'), 'Wedding photos');
    await user.click(within(dialog).getByRole('button', { name: 'Create request' }));
    await waitFor(() => expect(server.calls('POST', '/api/file-request')).toHaveLength(1));
    expect(server.calls('POST', '/api/file-request')[0]?.body).toEqual({
      folder_id: null,
      name: 'Wedding photos',
      notes: null,
      email: null,
      expires_in: 72,
    });
    expect(await within(dialog).findByText(/The request is open until/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    // The folder the server made for it shows in My files.
    await waitFor(() => expect(row('Wedding photos')).toBeDefined());
  });
});

describe('upload requests page', { timeout: 30_000 }, () => {
  it('lists each request with its state, what it received and its folder, and closes an open one', async () => {
    const receiving = server.add(
      buildRequest({ id: invoices.id, name: 'Invoices' }, { status: 'filling', received: 3 }),
    );
    server.add(
      buildRequest({ id: 'folder-old', name: 'Old scans' }, { name: 'Old scans', status: 'expired' }),
    );
    await renderApp('/platform/upload-requests', { user: buildUser() });
    const user = userEvent.setup();

    const cards = await screen.findAllByTestId('upload-request');
    expect(cards.map((card) => within(card).getByTestId('request-status').textContent)).toEqual([
      'Expired',
      'Receiving',
    ]);
    const open = cards[1]!;
    expect(open).toHaveTextContent('3 files received');
    expect(within(open).getByRole('link', { name: 'Invoices' })).toHaveAttribute(
      'href',
      `/platform/files/${invoices.id}`,
    );
    expect(within(cards[0]!).queryByRole('button', { name: /Close/ })).not.toBeInTheDocument();

    await user.click(within(open).getByRole('button', { name: 'Close “Invoices”' }));
    const confirm = await screen.findByRole('dialog', { name: 'Close this upload request?' });
    await user.click(within(confirm).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(within(open).getByTestId('request-status')).toHaveTextContent('Closed'));
    expect(server.calls('DELETE', `/api/file-request/${receiving.id}`)).toHaveLength(1);
  });

  it('offers to make the first request when there is none', async () => {
    await renderApp('/platform/upload-requests', { user: buildUser() });
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: 'No upload requests yet' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New request' }));
    expect(await screen.findByRole('dialog', { name: 'New upload request' })).toBeInTheDocument();
  });
});
