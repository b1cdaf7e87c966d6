import { randomUUID } from 'node:crypto';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { UserRow } from '../../src/db/schema';
import type { TransactionsTable } from '../../src/modules/billing/billing.tables';
import { TransactionsRepository } from '../../src/modules/billing/transactions.repository';
import type { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { createUser, signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';

type Person = { user: UserRow; agent: TestAgent };

/** The text of every page of a PDF, read back by PDF.js (Mozilla's reader), items joined by spaces. */
async function pdfText(bytes: Buffer): Promise<string> {
  const document = await getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    useSystemFonts: false,
    verbosity: 0,
  }).promise;
  const pages: string[] = [];
  for (let number = 1; number <= document.numPages; number++) {
    const content = await (await document.getPage(number)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await document.destroy();
  return pages.join('\n').replace(/\s+/g, ' ');
}

describeEachDatabase('billing: PDF invoices', (kind) => {
  let t: TestApp;
  let ledger: TransactionsRepository;
  let admin: Person;
  let owner: Person;
  let stranger: Person;
  let planId: string;

  /** A transaction as the ledger records it from a verified provider event. */
  async function record(
    person: UserRow,
    overrides: Partial<TransactionsTable> = {},
  ): Promise<{ id: string; reference: string }> {
    const at = '2026-11-20T10:30:00.000Z';
    const row = await ledger.recordOnce({
      id: randomUUID(),
      user_id: person.id,
      user_name: person.name,
      user_email: person.email,
      plan_id: planId,
      subscription_id: null,
      type: 'charge',
      status: 'completed',
      amount_minor: 1999,
      currency: 'USD',
      driver: 'stripe',
      reference: `in_${randomUUID().replace(/-/g, '').slice(0, 14)}`,
      note: 'Studio subscription',
      created_at: at,
      updated_at: at,
      ...overrides,
    });
    return { id: row!.id, reference: row!.reference };
  }

  beforeAll(async () => {
    t = await createTestApp({
      database: kind,
      settings: { subscription_type: 'fixed', app_title: 'Atelier Nord' },
    });
    ledger = new TransactionsRepository(t.deps.database);
    admin = await signedInAgent(t.app, (await createUser(t.deps, { name: 'Ada Admin', role: 'admin' })).user);
    owner = await signedInAgent(
      t.app,
      (await createUser(t.deps, { name: 'Grace Hopper', email: 'grace@example.test' })).user,
    );
    stranger = await signedInAgent(t.app, (await createUser(t.deps, { name: 'Sam Stranger' })).user);
    const plan = await admin.agent.post('/api/admin/plans', {
      type: 'fixed',
      name: 'Studio',
      description: 'For small teams',
      currency: 'USD',
      amount: '19.99',
      interval: 'month',
      features: { max_storage_amount: 200, max_team_members: 5 },
    });
    expect(plan.statusCode, plan.body).toBe(201);
    planId = plan.json().data.id;
  });
  afterAll(() => t.close());

  it("downloads the owner's completed charge as a PDF with the instance, the person, the plan, the amount and the reference", async () => {
    const charge = await record(owner.user);
    const answer = await owner.agent.get(`/api/user/transactions/${charge.id}/invoice`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-type']).toBe('application/pdf');
    expect(answer.headers['content-disposition']).toContain(
      `attachment; filename="invoice-${charge.reference}.pdf"`,
    );
    expect(answer.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const text = await pdfText(answer.rawPayload);
    expect(text).toContain('Atelier Nord');
    expect(text).toContain('contact@atelier.test');
    expect(text).toContain('Invoice');
    expect(text).toContain(`Reference: ${charge.reference}`);
    expect(text).toContain('November 20, 2026');
    expect(text).toContain('Grace Hopper');
    expect(text).toContain('grace@example.test');
    expect(text).toContain('Studio subscription');
    expect(text).toContain('Plan: Studio');
    expect(text).toContain('Period: November 20, 2026 – December 20, 2026');
    expect(text).toContain('19.99 USD');
    expect(text).toContain('Status: Paid');
    expect(text).toContain('Paid with: Stripe');
  });

  it("ends the period of a charge made on the 31st on the next month's last day", async () => {
    const charge = await record(owner.user, { created_at: '2026-01-31T10:30:00.000Z' });
    const text = await pdfText(
      (await owner.agent.get(`/api/user/transactions/${charge.id}/invoice`)).rawPayload,
    );
    expect(text).toContain('Period: January 31, 2026 – February 28, 2026');
  });

  it('prints a name in Cyrillic and Greek as written', async () => {
    const charge = await record(owner.user, {
      user_name: 'Анна Каренина · Σωκράτης',
      amount_minor: 500000,
      currency: 'JPY',
      note: 'Годовой план',
      plan_id: null,
      driver: 'paypal',
    });
    const answer = await owner.agent.get(`/api/user/transactions/${charge.id}/invoice`);
    expect(answer.statusCode, answer.body).toBe(200);
    const text = await pdfText(answer.rawPayload);
    expect(text).toContain('Анна Каренина · Σωκράτης');
    expect(text).toContain('Годовой план');
    expect(text).toContain('500000 JPY');
    expect(text).toContain('Paid with: PayPal');
    expect(text).not.toContain('Plan:');
  });

  it("answers 404 for someone else's charge, a credit, a failed charge and an unknown id", async () => {
    const others = await record(stranger.user);
    const credit = await record(owner.user, { type: 'credit', driver: 'admin', plan_id: null });
    const failed = await record(owner.user, { status: 'failed' });
    for (const id of [others.id, credit.id, failed.id, randomUUID()]) {
      const answer = await owner.agent.get(`/api/user/transactions/${id}/invoice`);
      expect(answer.statusCode, id).toBe(404);
      expect(answer.headers['content-type']).not.toBe('application/pdf');
    }
    // The stranger downloads their own.
    expect((await stranger.agent.get(`/api/user/transactions/${others.id}/invoice`)).statusCode).toBe(200);
  });

  it("lets the admin download anyone's invoice, still only of a completed charge", async () => {
    const charge = await record(owner.user, { note: 'Admin copy' });
    const failed = await record(owner.user, { status: 'failed' });
    const answer = await admin.agent.get(`/api/admin/transactions/${charge.id}/invoice`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(await pdfText(answer.rawPayload)).toContain('Admin copy');
    expect((await admin.agent.get(`/api/admin/transactions/${failed.id}/invoice`)).statusCode).toBe(404);
    // Not an admin: refused before any lookup.
    expect((await owner.agent.get(`/api/admin/transactions/${charge.id}/invoice`)).statusCode).toBe(403);
  });
});
