import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAgent } from '../support/agent';
import { signedInAgent } from '../support/factories';
import { createFilesTestApp, filesMatrix, readZip, uploaded, type FilesTestApp } from './files-harness';

for (const [database, storage] of filesMatrix) {
  describe(`downloads and zips [${database}, ${storage}]`, () => {
    let t: FilesTestApp;
    let agent: TestAgent;
    const data = randomBytes(200_000);
    let fileId: string;

    beforeAll(async () => {
      t = await createFilesTestApp(database, storage);
      ({ agent } = await signedInAgent(t.app));
      fileId = (await uploaded(agent, data, { name: 'report "final".bin' })).id;
    });
    afterAll(() => t.close());

    const get = (url: string, headers: Record<string, string> = {}) => agent.get(url, { headers });

    it('serves the bytes with an ETag, a safe disposition and a sandboxing CSP', async () => {
      const res = await get(`/file/${fileId}`);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(data)).toBe(true);
      expect(res.headers['content-length']).toBe(String(data.length));
      expect(res.headers['accept-ranges']).toBe('bytes');
      expect(res.headers.etag).toMatch(/^".+"$/);
      expect(res.headers['content-security-policy']).toMatch(/^sandbox;/);
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'self'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-disposition']).toBe(
        `inline; filename="report _final_.bin"; filename*=UTF-8''report%20%22final%22.bin`,
      );
      const forced = await get(`/file/${fileId}?download=1`);
      expect(forced.headers['content-disposition']).toMatch(/^attachment;/);
    });

    it('serves scripts and style sheets inline as plain text, and as themselves only as downloads', async () => {
      for (const [name, type] of [
        ['widget.js', 'text/javascript'],
        ['module.mjs', 'text/javascript'],
        ['theme.css', 'text/css'],
      ] as const) {
        const id = (await uploaded(agent, Buffer.from('alert(document.cookie)'), { name })).id;
        const inline = await get(`/file/${id}`);
        expect(inline.headers['content-type']).toBe('text/plain; charset=utf-8');
        expect(inline.headers['x-content-type-options']).toBe('nosniff');
        const download = await get(`/file/${id}?download=1`);
        expect(download.headers['content-type']).toContain(type);
        expect(download.headers['content-disposition']).toMatch(/^attachment;/);
      }
    });

    it('answers HEAD with the headers and no body', async () => {
      const res = await agent.request('HEAD' as 'GET', `/file/${fileId}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-length']).toBe(String(data.length));
      expect(res.headers.etag).toMatch(/^".+"$/);
      expect(res.rawPayload.length).toBe(0);
    });

    it('answers byte ranges, suffix ranges and refuses unsatisfiable ones', async () => {
      const middle = await get(`/file/${fileId}`, { range: 'bytes=1000-1999' });
      expect(middle.statusCode).toBe(206);
      expect(middle.headers['content-range']).toBe(`bytes 1000-1999/${data.length}`);
      expect(middle.rawPayload.equals(data.subarray(1000, 2000))).toBe(true);

      const first = await get(`/file/${fileId}`, { range: 'bytes=0-0' });
      expect(first.statusCode).toBe(206);
      expect(first.rawPayload.equals(data.subarray(0, 1))).toBe(true);

      const tail = await get(`/file/${fileId}`, { range: 'bytes=-500' });
      expect(tail.rawPayload.equals(data.subarray(data.length - 500))).toBe(true);
      const open = await get(`/file/${fileId}`, { range: `bytes=${data.length - 10}-` });
      expect(open.rawPayload.equals(data.subarray(data.length - 10))).toBe(true);

      const beyond = await get(`/file/${fileId}`, { range: `bytes=${data.length}-` });
      expect(beyond.statusCode).toBe(416);
      expect(beyond.headers['content-range']).toBe(`bytes */${data.length}`);
    });

    it('answers 304 to a matching If-None-Match and ignores a stale If-Range', async () => {
      const { etag } = (await get(`/file/${fileId}`)).headers;
      expect((await get(`/file/${fileId}`, { 'if-none-match': String(etag) })).statusCode).toBe(304);
      const stale = await get(`/file/${fileId}`, { range: 'bytes=0-9', 'if-range': '"something-else"' });
      expect(stale.statusCode).toBe(200);
      expect(stale.rawPayload.length).toBe(data.length);
    });

    it('never lets uploaded HTML act as a page of the app', async () => {
      const page = await uploaded(agent, Buffer.from('<html><script>alert(1)</script></html>'), {
        name: 'evil.html',
      });
      const res = await get(`/file/${page.id}`);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-disposition']).toMatch(/^attachment;/);
      expect(res.headers['content-security-policy']).toMatch(/^sandbox;/);
    });

    it('zips files and folders with the tree kept, names sanitised and bytes identical', async () => {
      const top = (await agent.post('/api/create-folder', { name: 'Album: 2024?' })).json().data;
      const sub = (await agent.post('/api/create-folder', { name: 'Raw', parent_id: top.id })).json().data;
      await agent.post('/api/create-folder', { name: 'Empty', parent_id: top.id });
      const a = randomBytes(70_000);
      const b = Buffer.from('plain text '.repeat(2000));
      const c = randomBytes(10);
      await uploaded(agent, a, { name: 'a.jpg', parentId: top.id });
      await uploaded(agent, b, { name: 'notes.txt', parentId: sub.id });
      await uploaded(agent, c, { name: 'NOTES.txt', parentId: sub.id });
      const trashed = await uploaded(agent, randomBytes(10), { name: 'trashed.bin', parentId: top.id });
      await agent.post('/api/remove', { items: [{ id: trashed.id, type: 'file', force_delete: false }] });
      const loose = randomBytes(5000);
      const looseFile = await uploaded(agent, loose, { name: 'loose.bin' });

      const res = await get(`/api/zip?items=${top.id}|folder,${looseFile.id}|file`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/zip');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="archive.zip"/);
      const entries = readZip(res.rawPayload);
      expect([...entries.keys()].sort()).toEqual(
        [
          'Album_ 2024_/',
          'Album_ 2024_/Empty/',
          'Album_ 2024_/Raw/',
          'Album_ 2024_/Raw/NOTES (1).txt',
          'Album_ 2024_/Raw/notes.txt',
          'Album_ 2024_/a.jpg',
          'loose.bin',
        ].sort(),
      );
      expect(entries.get('Album_ 2024_/a.jpg')!.equals(a)).toBe(true);
      const rawNames = ['Album_ 2024_/Raw/notes.txt', 'Album_ 2024_/Raw/NOTES (1).txt'];
      expect(rawNames.map((n) => entries.get(n)!.length).sort((x, y) => x - y)).toEqual([c.length, b.length]);
      expect([...rawNames.map((n) => entries.get(n)!)].some((e) => e.equals(b))).toBe(true);
      expect(entries.get('loose.bin')!.equals(loose)).toBe(true);

      const single = await get(`/api/zip?items=${sub.id}|folder`);
      expect(single.headers['content-disposition']).toMatch(/filename="Raw.zip"/);
    });

    it('zips a folder chosen together with a folder inside it whole, each file once in each', async () => {
      const outer = (await agent.post('/api/create-folder', { name: 'Outer' })).json().data;
      const inner = (await agent.post('/api/create-folder', { name: 'Inner', parent_id: outer.id })).json()
        .data;
      await uploaded(agent, randomBytes(30), { name: 'x.txt', parentId: inner.id });
      const res = await get(`/api/zip?items=${outer.id}|folder,${inner.id}|folder`);
      expect(res.statusCode).toBe(200);
      expect([...readZip(res.rawPayload).keys()].sort()).toEqual(
        ['Inner/', 'Inner/x.txt', 'Outer/', 'Outer/Inner/', 'Outer/Inner/x.txt'].sort(),
      );
    });

    it('refuses a malformed zip request', async () => {
      expect((await get('/api/zip?items=nonsense')).statusCode).toBe(422);
    });
  });
}
