import { describe, expect, it } from 'vitest';
import { projectChunkFetch } from '../../../src/features/projects/project-uploads';
import { createUploadQueue } from '../../../src/lib/upload-queue';

/** A chunk endpoint that records every form it receives and answers like the server. */
function fakeChunkServer() {
  const forms: Array<Array<[string, string]>> = [];
  const send = (async (_input: RequestInfo | URL, init?: RequestInit) => {
    const form = init!.body as FormData;
    forms.push(
      [...form.entries()].map(([key, value]) => [
        key,
        typeof value === 'string' ? value : `file:${(value as File).name}`,
      ]),
    );
    const last = form.get('is_last_chunk') === '1';
    return last
      ? new Response(
          JSON.stringify({
            data: { id: 'f1', type: 'file', attributes: { name: form.get('name'), parent_id: null } },
          }),
          {
            status: 201,
            headers: { 'content-type': 'application/json' },
          },
        )
      : new Response(null, { status: 204 });
  }) as typeof fetch;
  return { forms, send };
}

describe('project uploads', () => {
  it('send project_id before every chunk and reload the inputs after each one', async () => {
    const server = fakeChunkServer();
    const reloads: number[] = [];
    const queue = createUploadQueue({
      endpoint: '/api/projects/upload/chunks',
      settings: () => ({
        chunkSize: 4,
        uploadLimit: 0,
        mimetypesBlacklist: [],
        subscriptionType: 'none',
        canUpload: true,
      }),
      onNotice: () => undefined,
      fetch: projectChunkFetch('project-7', () => reloads.push(server.forms.length), server.send),
    });
    const done = new Promise<void>((resolve) =>
      queue.subscribe(() => queue.getState().total === 0 && resolve()),
    );
    queue.add([new File(['0123456789'], 'ring band.stl')], null);
    await done;

    expect(server.forms).toHaveLength(3);
    for (const form of server.forms) {
      expect(form[0]).toEqual(['project_id', 'project-7']);
      expect(form.map(([key]) => key)).toEqual([
        'project_id',
        'name',
        'extension',
        'is_last_chunk',
        'offset',
        'chunk',
      ]);
      expect(form[1]).toEqual(['name', 'ring-band.stl']);
      expect(form.at(-1)![1]).toMatch(/^file:[0-9a-z]{16}-ring-band\.stl\.part$/);
    }
    expect(server.forms.map((form) => form[3]![1])).toEqual(['0', '0', '1']);
    // Each chunk says where it starts, so a retried one is never stored twice.
    expect(server.forms.map((form) => form[4]![1])).toEqual(['0', '4', '8']);
    // The input list reloaded once per chunk, each time after the server answered it.
    expect(reloads).toEqual([1, 2, 3]);
  });
});
