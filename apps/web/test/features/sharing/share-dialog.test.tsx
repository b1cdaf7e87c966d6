import type { ItemResource } from '@atelier/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildUser } from '../../fixtures';
import { renderApp } from '../../render-app';
import { buildItem } from '../files/fake-files-server';
import { fakeOwnerShareServer } from './fake-share-server';

let server: ReturnType<typeof fakeOwnerShareServer>;
let invoices: ItemResource;
let report: ItemResource;

beforeEach(() => {
  invoices = buildItem('folder', 'Invoices', { items: 3 });
  report = buildItem('file', 'report.txt', { filesize: 2048 });
  server = fakeOwnerShareServer([invoices, report]);
  vi.stubGlobal('fetch', server.fetch);
});

const row = (name: string) =>
  screen.getAllByTestId('item-row').find((element) => within(element).queryByText(name))!;

async function openItemMenu(name: string, entry: string) {
  const user = userEvent.setup();
  await user.click(within(row(name)).getByRole('button', { name: `Actions for ${name}` }));
  await user.click(await screen.findByRole('menuitem', { name: entry }));
  return user;
}

async function openFiles(path = '/platform/files') {
  await renderApp(path, { user: buildUser() });
  await screen.findByText('report.txt');
}

describe('share dialog', { timeout: 30_000 }, () => {
  it('creates a protected, expiring folder link and shows it with its QR code and counters', async () => {
    await openFiles();
    const user = await openItemMenu('Invoices', 'Share');
    const dialog = await screen.findByRole('dialog', { name: 'Share “Invoices”' });
    await user.click(within(dialog).getByRole('radio', { name: /Can edit/ }));
    await user.click(within(dialog).getByRole('switch', { name: /Protect with a password/ }));
    await user.type(within(dialog).getByLabelText('Password'), 'studio 52');
    await user.selectOptions(within(dialog).getByLabelText('Link expires after'), '6 hours');
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));

    await waitFor(() => expect(server.calls('POST', '/api/share')).toHaveLength(1));
    expect(server.calls('POST', '/api/share')[0]?.body).toEqual({
      id: invoices.id,
      type: 'folder',
      permission: 'editor',
      isPassword: true,
      password: 'studio 52',
      expiration: 6,
    });
    const [token] = server.shares.keys();
    expect(await within(dialog).findByLabelText('Link')).toHaveValue(`http://atelier.test/share/${token}`);
    expect(await within(dialog).findByRole('img', { name: 'QR code of the link' })).toHaveAttribute(
      'src',
      expect.stringMatching(/^data:image\/svg\+xml/),
    );
    expect(within(dialog).getByText('Views').nextElementSibling).toHaveTextContent('0');
    expect(within(dialog).getByText('Expires on', { exact: false })).toBeInTheDocument();
    // A folder that is no project's has no product page to embed.
    expect(within(dialog).queryByRole('textbox', { name: 'Product page' })).not.toBeInTheDocument();
    // The listing marks the item as shared at once.
    expect(within(row('Invoices')).getByTestId('shared-badge')).toHaveAccessibleName(
      /can edit · password protected · lasts 6 hours/,
    );
  });

  it("shows a project's link as its product page too, with the two codes that embed it and the link's rules", async () => {
    const signet = buildItem('folder', 'Signet ring', { items: 2 });
    server = fakeOwnerShareServer([invoices, report, signet], { [signet.id]: 'Signet ring' });
    vi.stubGlobal('fetch', server.fetch);
    await openFiles();
    const user = await openItemMenu('Signet ring', 'Share');
    const dialog = await screen.findByRole('dialog', { name: 'Share “Signet ring”' });
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));

    const [token] = server.shares.keys();
    expect(await within(dialog).findByRole('textbox', { name: 'Product page' })).toHaveValue(
      `http://atelier.test/share/${token}/product`,
    );
    const embed = within(dialog).getByRole('region', { name: 'Embed on your shop' });
    expect(within(embed).getByText(/keeps this link’s rules/)).toBeInTheDocument();
    expect(
      within(embed).getByRole<HTMLTextAreaElement>('textbox', { name: 'Frame (iframe)' }).value,
    ).toContain(`src="http://atelier.test/share/${token}/product?embed=1"`);
    const script = `<script async src="http://atelier.test/embed.js" data-product="${token}"></script>`;
    const scriptCode = within(embed).getByRole('textbox', { name: 'Script (embed.js)' });
    expect(scriptCode).toHaveValue(script);
    // The field's own copy button, beside it.
    const scriptField = within(scriptCode.parentElement!);
    await user.click(scriptField.getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe(script);
    expect(await scriptField.findByRole('button', { name: 'Copied' })).toBeInTheDocument();
  });

  it('edits only what the owner changed, so the expiry and the password stay as they were', async () => {
    const existing = server.share(invoices, { permission: 'editor', protected: true, expire_in: 24 });
    await openFiles();
    const user = await openItemMenu('Invoices', 'Share link');
    const dialog = await screen.findByRole('dialog', { name: 'Share “Invoices”' });
    expect(within(dialog).getByText('Views').nextElementSibling).toHaveTextContent('7');
    await user.click(within(dialog).getByRole('button', { name: 'Edit settings' }));

    expect(within(dialog).getByRole('radio', { name: /Can edit/ })).toBeChecked();
    expect(within(dialog).getByRole('switch', { name: /Protect with a password/ })).toBeChecked();
    expect(within(dialog).getByLabelText('Link expires after')).toHaveValue('24');
    await user.click(within(dialog).getByRole('radio', { name: /Can view/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));

    await waitFor(() => expect(server.calls('POST', `/api/share/${existing.token}`)).toHaveLength(1));
    expect(server.calls('POST', `/api/share/${existing.token}`)[0]?.body).toEqual({
      permission: 'visitor',
      _method: 'patch',
    });
    expect(await within(dialog).findByRole('button', { name: 'Edit settings' })).toBeInTheDocument();
    expect(within(row('Invoices')).getByTestId('shared-badge')).toHaveAccessibleName(/can view/);
  });

  it('shares a file as visitor only: no permission choice, and the call says visitor', async () => {
    await openFiles();
    const user = await openItemMenu('report.txt', 'Share');
    const dialog = await screen.findByRole('dialog', { name: 'Share “report.txt”' });
    expect(within(dialog).queryByRole('radio')).not.toBeInTheDocument();
    expect(within(dialog).getByText(/a shared file is never editable/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));

    await waitFor(() => expect(server.calls('POST', '/api/share')).toHaveLength(1));
    expect(server.calls('POST', '/api/share')[0]?.body).toMatchObject({
      type: 'file',
      permission: 'visitor',
      isPassword: false,
      expiration: null,
    });
  });

  it('refuses to protect a link without a password before calling the server', async () => {
    await openFiles();
    const user = await openItemMenu('Invoices', 'Share');
    const dialog = await screen.findByRole('dialog', { name: 'Share “Invoices”' });
    await user.click(within(dialog).getByRole('switch', { name: /Protect with a password/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    expect(await within(dialog).findByText('Enter a password for the protected link.')).toBeInTheDocument();
    expect(server.calls('POST', '/api/share')).toHaveLength(0);
  });

  it('asks for a password of at least 8 characters before calling the server', async () => {
    await openFiles();
    const user = await openItemMenu('Invoices', 'Share');
    const dialog = await screen.findByRole('dialog', { name: 'Share “Invoices”' });
    await user.click(within(dialog).getByRole('switch', { name: /Protect with a password/ }));
    const password = within(dialog).getByLabelText('Password');
    expect(password).toHaveAttribute('minlength', '8');
    await user.type(password, 'studio5');
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    expect(await within(dialog).findByText('Use at least 8 characters.')).toBeInTheDocument();
    expect(server.calls('POST', '/api/share')).toHaveLength(0);
  });

  it('sends the link to several addresses and refuses one that is not an address', async () => {
    const existing = server.share(report);
    await openFiles();
    const user = await openItemMenu('report.txt', 'Share link');
    const dialog = await screen.findByRole('dialog', { name: 'Share “report.txt”' });
    const input = within(dialog).getByLabelText('Send the link by e-mail');
    await user.type(input, 'ana@studio.test, Ben@Studio.test{Enter}not-an-address');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText('“not-an-address” is not an e-mail address.')).toBeInTheDocument();
    expect(server.calls('POST', `/api/share/${existing.token}/email`)).toHaveLength(0);

    await user.clear(input);
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(server.calls('POST', `/api/share/${existing.token}/email`)).toHaveLength(1));
    expect(server.calls('POST', `/api/share/${existing.token}/email`)[0]?.body).toEqual({
      emails: ['ana@studio.test', 'ben@studio.test'],
    });
    expect(await screen.findByText('The link was sent to 2 addresses.')).toBeInTheDocument();
  });

  it('revokes from the dialog after asking, and the item loses its badge', async () => {
    const existing = server.share(invoices);
    await openFiles();
    expect(within(row('Invoices')).getByTestId('shared-badge')).toBeInTheDocument();
    const user = await openItemMenu('Invoices', 'Share link');
    const dialog = await screen.findByRole('dialog', { name: 'Share “Invoices”' });
    await user.click(await within(dialog).findByRole('button', { name: 'Revoke link' }));
    const confirm = within(dialog).getByRole('alertdialog', { name: 'Revoke this link?' });
    expect(server.calls('POST', '/api/share/revoke')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Revoke link' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.calls('POST', '/api/share/revoke')[0]?.body).toEqual({
      tokens: [existing.token],
      _method: 'delete',
    });
    expect(within(row('Invoices')).queryByTestId('shared-badge')).not.toBeInTheDocument();
  });
});

describe('My shared items', { timeout: 30_000 }, () => {
  it('lists shared items with their link state, and revoking takes the item off the list', async () => {
    server.share(invoices, { permission: 'editor', protected: true, expire_in: 168 });
    const fileShare = server.share(report);
    await renderApp('/platform/shared', { user: buildUser() });
    expect(await screen.findByRole('heading', { name: 'My shared items' })).toBeInTheDocument();
    expect(await screen.findByText('report.txt')).toBeInTheDocument();
    expect(within(row('Invoices')).getAllByText('Can edit').length).toBeGreaterThan(0);
    expect(within(row('Invoices')).getAllByText('7 days').length).toBeGreaterThan(0);
    expect(within(row('report.txt')).getAllByText('Never').length).toBeGreaterThan(0);

    const user = await openItemMenu('report.txt', 'Revoke link');
    const confirm = await screen.findByRole('dialog', { name: /Revoke this link\?/ });
    await user.click(within(confirm).getByRole('button', { name: 'Revoke link' }));

    await waitFor(() => expect(screen.queryByText('report.txt')).not.toBeInTheDocument());
    expect(server.calls('POST', '/api/share/revoke')[0]?.body).toEqual({
      tokens: [fileShare.token],
      _method: 'delete',
    });
    expect(screen.getAllByTestId('item-row')).toHaveLength(1);
    expect(await screen.findByText('The link was revoked.')).toBeInTheDocument();
  });
});
