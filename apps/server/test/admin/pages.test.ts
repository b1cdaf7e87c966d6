import { afterAll, beforeAll, expect, it } from 'vitest';
import { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { createUser, signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';

describeEachDatabase('admin: content pages', (kind) => {
  let t: TestApp;
  let admin: TestAgent;
  let visitor: TestAgent;

  beforeAll(async () => {
    t = await createTestApp({ database: kind });
    admin = (await signedInAgent(t.app, (await createUser(t.deps, { role: 'admin' })).user)).agent;
    visitor = new TestAgent(t.app);
  });
  afterAll(() => t.close());

  it('lists the pages every instance starts with', async () => {
    const res = await admin.get('/api/admin/pages');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((p: { id: string }) => p.id)).toEqual([
      'cookie-policy',
      'privacy-policy',
      'terms-of-service',
    ]);
    expect(res.json().data[0].attributes.visibility).toBe(true);
  });

  it('edits a page; the public page follows at once, rendered from Markdown', async () => {
    expect((await visitor.get('/api/pages/terms-of-service')).json().data.attributes.title).toBe(
      'Terms of Service',
    );
    const content = '## Your files\n\nYou keep **every right** to [your files](https://example.test/rights).';
    const res = await admin.patch('/api/admin/pages/terms-of-service', { title: 'Terms of use', content });
    expect(res.statusCode).toBe(200);
    const page = (await visitor.get('/api/pages/terms-of-service')).json().data.attributes;
    expect(page).toMatchObject({ title: 'Terms of use', content, visibility: true });
    expect(page.html).toBe(
      '<h2>Your files</h2>\n<p>You keep <strong>every right</strong> to ' +
        '<a href="https://example.test/rights" rel="noopener noreferrer" target="_blank">your files</a>.</p>\n',
    );
  });

  it('hides a page from the public (404) while an admin still previews it', async () => {
    const hidden = await admin.patch('/api/admin/pages/cookie-policy', { visibility: false });
    expect(hidden.json().data.attributes.visibility).toBe(false);
    const res = await visitor.get('/api/pages/cookie-policy');
    expect(res.statusCode).toBe(404);
    const { agent: user } = await signedInAgent(t.app);
    expect((await user.get('/api/pages/cookie-policy')).statusCode).toBe(404);
    expect((await admin.get('/api/pages/cookie-policy')).json().data.attributes.visibility).toBe(false);
    await admin.patch('/api/admin/pages/cookie-policy', { visibility: true });
    expect((await visitor.get('/api/pages/cookie-policy')).statusCode).toBe(200);
  });

  it('makes script, event handler and javascript: payloads inert', async () => {
    const content = [
      '<script>alert(1)</script>',
      '<img src=x onerror="alert(2)">',
      '[click](javascript:alert(3))',
      '[data](data:text/html;base64,PHNjcmlwdD5hbGVydCg0KTwvc2NyaXB0Pg==)',
      '![pic](javascript:alert(5))',
      '<a href="javascript:alert(6)">raw</a>',
      '[vb](vbscript:msgbox(7)) [JS](JaVaScRiPt:alert(8)) [tab](java\tscript:alert(9))',
    ].join('\n\n');
    const res = await admin.patch('/api/admin/pages/privacy-policy', { content });
    expect(res.statusCode).toBe(200);
    const html: string = (await visitor.get('/api/pages/privacy-policy')).json().data.attributes.html;
    const tags = html.match(/<[a-z][^>]*>/gi) ?? [];
    expect(tags.length).toBeGreaterThan(0);
    for (const tag of tags) {
      expect(tag).toMatch(/^<(p|a|br)[ >]/); // no script, img or anything else came through
      expect(tag).not.toMatch(/\son\w+=/i);
      expect(tag).not.toMatch(/href="(?!https?:)/i);
    }
    // The raw HTML is shown as text, so the reader sees what was written.
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    const preview = await admin.post('/api/admin/pages/preview', { content });
    expect(preview.json().data.html).toBe(html);
  });

  it('creates a page; a taken or malformed address is refused and nothing changes', async () => {
    const body = { slug: 'imprint', title: 'Imprint', content: 'Atelier Ltd.', visibility: false };
    const created = await admin.post('/api/admin/pages', body);
    expect(created.statusCode).toBe(201);
    expect(created.json().data.attributes).toMatchObject({
      slug: 'imprint',
      visibility: false,
      html: '<p>Atelier Ltd.</p>\n',
    });
    expect((await visitor.get('/api/pages/imprint')).statusCode).toBe(404);

    const taken = await admin.post('/api/admin/pages', { ...body, title: 'Other' });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors.slug).toEqual(['A page with this address exists already.']);
    expect((await admin.get('/api/pages/imprint')).json().data.attributes.title).toBe('Imprint');
    for (const slug of ['Imprint', '../x', 'a b', ''])
      expect((await admin.post('/api/admin/pages', { ...body, slug })).statusCode).toBe(422);
    expect((await admin.patch('/api/admin/pages/terms-of-service', { title: '  ' })).statusCode).toBe(422);
    expect((await admin.patch('/api/admin/pages/nothing-here', { title: 'x' })).statusCode).toBe(404);
  });

  it('keeps the admin calls from users', async () => {
    const { agent: user } = await signedInAgent(t.app);
    expect((await user.get('/api/admin/pages')).statusCode).toBe(403);
    expect((await user.patch('/api/admin/pages/terms-of-service', { title: 'Mine' })).statusCode).toBe(403);
    expect((await visitor.get('/api/admin/pages')).statusCode).toBe(401);
  });
});
