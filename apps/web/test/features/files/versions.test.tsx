import type { ItemResource, VersionResource } from '@atelier/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildUser } from '../../fixtures';
import { renderApp } from '../../render-app';
import { buildItem, fakeFilesServer } from './fake-files-server';

let server: ReturnType<typeof fakeFilesServer>;
let report: ItemResource;
let notes: ItemResource;

beforeEach(() => {
  report = buildItem('file', 'report.txt', { filesize: 2048 });
  notes = buildItem('file', 'notes.txt', { filesize: 10 });
  server = fakeFilesServer([report, notes]);
  vi.stubGlobal('fetch', server.fetch);
});

const row = (name: string) =>
  screen.getAllByTestId('item-row').find((element) => within(element).queryByText(name))!;

async function openFiles() {
  await renderApp('/platform/files', { user: buildUser() });
  await screen.findByText('report.txt');
}

const chunkConflicts = () =>
  server.calls('POST', '/api/upload/chunks').map((call) => {
    const form = call.body as FormData;
    return [form.get('name'), form.get('conflict')];
  });

describe('uploading a name the folder holds', { timeout: 30_000 }, () => {
  it('asks first and sends the choice; a name the folder does not hold goes without a question', async () => {
    const user = userEvent.setup();
    await openFiles();
    const input = screen.getByTestId('upload-files-input');

    await user.upload(input, new File(['new bytes'], 'report.txt'));
    const prompt = await screen.findByRole('dialog', { name: 'A file with this name is already here' });
    expect(within(prompt).getByText(/“report.txt” already exists in this folder/)).toBeInTheDocument();
    expect(server.calls('POST', '/api/upload/chunks')).toHaveLength(0);
    await user.click(within(prompt).getByRole('button', { name: 'Replace' }));
    await waitFor(() => expect(chunkConflicts()).toEqual([['report.txt', 'replace']]));

    // A name the folder does not hold goes without a question and without a choice.
    await user.upload(input, new File(['fresh'], 'fresh.txt'));
    await waitFor(() => expect(chunkConflicts().at(-1)).toEqual(['fresh.txt', null]));
  });

  it('asks once for many files when told to do the same for the others', async () => {
    const user = userEvent.setup();
    await openFiles();
    await user.upload(screen.getByTestId('upload-files-input'), [
      new File(['a'], 'report.txt'),
      new File(['b'], 'notes.txt'),
    ]);
    const prompt = await screen.findByRole('dialog', { name: 'A file with this name is already here' });
    await user.click(within(prompt).getByLabelText('Do the same for the other file'));
    await user.click(within(prompt).getByRole('button', { name: 'Keep both' }));
    await waitFor(() =>
      expect(chunkConflicts()).toEqual([
        ['report.txt', 'keep-both'],
        ['notes.txt', 'keep-both'],
      ]),
    );
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('uploads nothing when the question is closed', async () => {
    const user = userEvent.setup();
    await openFiles();
    await user.upload(screen.getByTestId('upload-files-input'), new File(['a'], 'report.txt'));
    await screen.findByRole('dialog', { name: 'A file with this name is already here' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.calls('POST', '/api/upload/chunks')).toHaveLength(0);
  });
});

describe('a file’s versions', { timeout: 30_000 }, () => {
  const version = (id: string, current: boolean, name: string | null, size: number): VersionResource => ({
    id,
    type: 'version',
    attributes: { size, created_at: '2026-03-01T10:00:00.000Z', current, author: { name } },
  });

  beforeEach(() => {
    let list = [version('v-now', true, 'Ada Lovelace', 2048), version('v-old', false, null, 1024)];
    server.answer((request) => {
      const base = `/api/files/${report.id}/versions`;
      if (request.method === 'GET' && request.path === base)
        return new Response(JSON.stringify({ data: list }), {
          headers: { 'content-type': 'application/json' },
        });
      if (request.method === 'POST' && request.path === `${base}/v-old/restore`)
        return new Response(JSON.stringify({ data: report }), {
          headers: { 'content-type': 'application/json' },
        });
      if (request.method === 'DELETE' && request.path === `${base}/v-old`) {
        list = list.slice(0, 1);
        return new Response(null, { status: 204 });
      }
      return undefined;
    });
  });

  async function openVersions() {
    const user = userEvent.setup();
    await openFiles();
    await user.click(within(row('report.txt')).getByRole('button', { name: 'Actions for report.txt' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Versions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Details and versions' });
    await within(dialog).findByText('Saved by Ada Lovelace · 2 KB');
    return { user, dialog };
  }

  it('lists who saved each version, when and its size, the current one marked, and counts the earlier ones', async () => {
    const { dialog } = await openVersions();
    expect(within(dialog).getByText('Current')).toBeInTheDocument();
    expect(within(dialog).getByText('Saved by someone with the link · 1 KB')).toBeInTheDocument();
    expect(within(dialog).getByText('1 version')).toBeInTheDocument();
    // The current one is not restored or deleted: only the earlier one offers it.
    expect(within(dialog).getAllByRole('button', { name: 'Restore' })).toHaveLength(1);
  });

  it('restores an earlier version', async () => {
    const { user, dialog } = await openVersions();
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await waitFor(() =>
      expect(server.calls('POST', `/api/files/${report.id}/versions/v-old/restore`)).toHaveLength(1),
    );
    expect(await screen.findByText(/Version restored/)).toBeInTheDocument();
  });

  it('deletes a version only once confirmed', async () => {
    const { user, dialog } = await openVersions();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(server.calls('DELETE', `/api/files/${report.id}/versions/v-old`)).toHaveLength(0);
    expect(within(dialog).getByText('Delete this version for good?')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(server.calls('DELETE', `/api/files/${report.id}/versions/v-old`)).toHaveLength(1),
    );
    await waitFor(() => expect(within(dialog).getByText('0 versions')).toBeInTheDocument());
  });
});
