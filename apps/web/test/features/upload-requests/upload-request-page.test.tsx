import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { currentUrl, renderApp } from '../../render-app';
import { fakeVisitRequestServer } from './fake-request-server';

let visit: ReturnType<typeof fakeVisitRequestServer>;

function serve(options: Parameters<typeof fakeVisitRequestServer>[0] = {}) {
  visit = fakeVisitRequestServer(options);
  vi.stubGlobal('fetch', visit.fetch);
  return visit;
}

const row = (name: string) =>
  screen.getAllByTestId('item-row').find((element) => within(element).queryByText(name))!;

// Someone without an account, holding only the request's link.
describe('the upload request page', { timeout: 30_000 }, () => {
  it('shows who asks and their notes as plain text, and what this request received, with nothing to read back', async () => {
    serve({ notes: 'Please send the <b>signed</b> copies.\nScans are fine.' });
    const user = userEvent.setup();
    await renderApp(`/request/${visit.token}/upload`);

    expect(await screen.findByRole('heading', { name: 'Signed contracts' })).toBeInTheDocument();
    expect(screen.getByText('Ada Lovelace asks you to send files.')).toBeInTheDocument();
    const notes = screen.getByText(/Please send the/);
    expect(notes.textContent).toBe('Please send the <b>signed</b> copies.\nScans are fine.');
    expect(notes.querySelector('b')).toBeNull();
    expect(screen.getByText('Requested by')).toBeInTheDocument();

    expect(await screen.findByText('contract.pdf')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Your files' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New folder' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add to favourites' })).not.toBeInTheDocument();

    // Uploads are the owner's now: no preview, no download, only changes to what was sent.
    await user.click(within(row('contract.pdf')).getByRole('button', { name: 'Actions for contract.pdf' }));
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((entry) => entry.textContent),
    ).toEqual(['Rename', 'Move', 'Delete']);
  });

  it('offers no search: the outsider looks at nothing but what they sent', async () => {
    serve();
    const user = userEvent.setup();
    await renderApp(`/request/${visit.token}/upload`);
    await screen.findByText('contract.pdf');
    expect(screen.queryByRole('button', { name: 'Open search' })).not.toBeInTheDocument();
    await user.keyboard('{Control>}k{/Control}');
    expect(screen.queryByRole('dialog', { name: 'Search' })).not.toBeInTheDocument();
  });

  it('uploads into the request folder and renames what was sent', async () => {
    serve();
    const user = userEvent.setup();
    await renderApp(`/request/${visit.token}/upload`);
    await screen.findByText('contract.pdf');

    await user.upload(
      screen.getByTestId('upload-files-input'),
      new File(['receipt'], 'march receipt.txt', { type: 'text/plain' }),
    );
    expect(await screen.findByText('march-receipt.txt')).toBeInTheDocument();
    const [chunk] = visit.calls('POST', `/api/file-request/${visit.token}/upload/chunks`);
    expect((chunk?.body as FormData).get('parent_id')).toBe(visit.folder.id);

    await user.click(within(row('contract.pdf')).getByRole('button', { name: 'Actions for contract.pdf' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Rename' }));
    const name = await screen.findByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'contract-signed.pdf{Enter}');
    expect(await screen.findByText('contract-signed.pdf')).toBeInTheDocument();
    expect(
      visit.calls('POST', `/api/file-request/${visit.token}/rename/${visit.contract.id}`)[0]?.body,
    ).toEqual({
      name: 'contract-signed.pdf',
      type: 'file',
      _method: 'patch',
    });
  });

  it('opens a folder of what was sent inside the page', async () => {
    serve();
    const user = userEvent.setup();
    const { router } = await renderApp(`/request/${visit.token}/upload`);
    await screen.findByText('contract.pdf');
    await user.dblClick(row('Scans'));
    await waitFor(() => expect(currentUrl(router)).toBe(`/request/${visit.token}/upload/${visit.scans.id}`));
    expect(await screen.findByRole('heading', { name: 'Scans' })).toBeInTheDocument();
  });

  it('closes the request after asking when the visitor is done, then thanks them', async () => {
    serve();
    const user = userEvent.setup();
    await renderApp(`/request/${visit.token}/upload`);
    await screen.findByText('contract.pdf');

    await user.click(screen.getByRole('button', { name: 'I’m done' }));
    const confirm = await screen.findByRole('dialog', { name: 'Are you done?' });
    expect(confirm).toHaveTextContent('Ada Lovelace is told that your files are ready.');
    await user.click(within(confirm).getByRole('button', { name: 'I’m done' }));

    expect(await screen.findByRole('heading', { name: 'Thank you!' })).toBeInTheDocument();
    expect(visit.calls('DELETE', `/api/file-request/${visit.token}`)).toHaveLength(1);
    expect(screen.queryByText('contract.pdf')).not.toBeInTheDocument();
  });

  it('says the request is closed instead of showing the uploader', async () => {
    serve({ status: 'filled' });
    await renderApp(`/request/${visit.token}/upload`);
    expect(await screen.findByRole('heading', { name: 'This upload request is closed' })).toBeInTheDocument();
    expect(screen.getByText(/ask Ada Lovelace for a new link/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Upload' })).not.toBeInTheDocument();
    expect(visit.calls('GET', `/api/file-request/${visit.token}/browse/all`)).toHaveLength(0);
  });

  it('says the request has expired, with the day it stopped', async () => {
    serve({ status: 'expired' });
    await renderApp(`/request/${visit.token}/upload`);
    expect(
      await screen.findByRole('heading', { name: 'This upload request has expired' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/It stopped taking files on .*2099/)).toBeInTheDocument();
  });

  it('shows why once a call answers 410 mid-session (the owner closed it meanwhile)', async () => {
    serve();
    const user = userEvent.setup();
    await renderApp(`/request/${visit.token}/upload`);
    await screen.findByText('contract.pdf');

    visit.request.attributes.status = 'filled';
    await user.dblClick(row('Scans'));
    expect(await screen.findByRole('heading', { name: 'This upload request is closed' })).toBeInTheDocument();
  });

  it('shows why when an upload is refused with 410, with the server’s reason', async () => {
    serve();
    const user = userEvent.setup();
    await renderApp(`/request/${visit.token}/upload`);
    await screen.findByText('contract.pdf');

    visit.request.attributes.status = 'expired';
    await user.upload(screen.getByTestId('upload-files-input'), new File(['late'], 'late.txt'));
    const alert = await screen.findByRole('dialog', {
      name: 'This upload request is closed. Nothing more can be sent through it.',
    });
    await user.click(within(alert).getByRole('button'));
    expect(
      await screen.findByRole('heading', { name: 'This upload request has expired' }),
    ).toBeInTheDocument();
  });

  it('sends an unknown token to NotFound', async () => {
    serve();
    await renderApp('/request/00000000-0000-4000-8000-000000000000/upload');
    expect(await screen.findByRole('heading', { name: 'This page does not exist' })).toBeInTheDocument();
  });
});
