import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Locator } from '../support/test';
import { ringMesh } from '../../packages/render/test/fixtures/shapes';
import { binaryStl } from '../../packages/render/test/fixtures/write-formats';
import {
  admin,
  call,
  ensureInstalled,
  registerAndSignIn,
  setProjectSettings,
  signIn,
  type Person,
} from '../support/api';
import { leaveUnpaidSettlement } from '../support/data-dir';
import { snap, snapEverywhere } from '../support/snap';
import { postStripeEvent, stripeId } from '../support/stripe-webhooks';

const WEBHOOK_SECRET = 'whsec_e2e_metered_billing_journey';
const stlPath = join(mkdtempSync(join(tmpdir(), 'atelier-metered-')), 'signet-ring.stl');
writeFileSync(stlPath, binaryStl(ringMesh({ segments: 48, sides: 16 })));
const member: Person = {
  name: 'Mia Metered',
  email: 'mila.metered@atelier.test',
  password: 'mila-password-1',
};

test('on a metered instance a person sees the balance and this period’s use; an admin’s credit and a signed Stripe top-up reach the balance live', async ({
  page,
  browser,
  baseURL,
}, info) => {
  test.setTimeout(360_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await ensureInstalled(page);
  await signIn(page, admin);

  await test.step('the admin makes the instance metered, with a plan and Stripe', async () => {
    const settings = await call(page, 'post', '/api/admin/settings', {
      settings: {
        subscription_type: 'metered',
        currency: 'EUR',
        allowed_payment_drivers: ['stripe'],
        stripe_public_key: 'pk_test_e2e',
        stripe_secret_key: 'sk_test_e2e',
        stripe_webhook_secret: WEBHOOK_SECRET,
      },
    });
    expect(settings.ok(), await settings.text()).toBe(true);
    const plan = await call(page, 'post', '/api/admin/plans', {
      type: 'metered',
      name: 'Pay as you go',
      description: 'Storage by the gigabyte, bandwidth by the gigabyte moved',
      currency: 'EUR',
      meters: [
        {
          key: 'storage',
          aggregate: 'maximum',
          tiers: [{ first_unit: 1, last_unit: null, per_unit: '0.10', flat_fee: '0' }],
        },
        {
          key: 'bandwidth',
          aggregate: 'sum',
          tiers: [{ first_unit: 1, last_unit: null, per_unit: '0.05', flat_fee: '0' }],
        },
        {
          key: 'flat_fee',
          aggregate: 'sum',
          tiers: [{ first_unit: 1, last_unit: null, per_unit: '2.00', flat_fee: '0' }],
        },
      ],
    });
    expect(plan.status(), await plan.text()).toBe(201);
  });

  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const person = await context.newPage();
  await registerAndSignIn(person, member);
  const userId = ((await (await call(person, 'get', '/api/user')).json()) as { data: { id: string } }).data
    .id;
  /** Stripe's signed report of a paid top-up Checkout Session under `reference`. */
  const reportTopUp = (reference: string, amountTotal: number) =>
    postStripeEvent(baseURL!, WEBHOOK_SECRET, 'checkout.session.completed', {
      id: stripeId('cs_test'),
      object: 'checkout.session',
      mode: 'payment',
      payment_status: 'paid',
      client_reference_id: userId,
      currency: 'eur',
      amount_total: amountTotal,
      metadata: { type: 'balance', user_id: userId, reference },
    });

  await test.step('the person sees the balance, the period’s use per meter and the estimate', async () => {
    await person.goto('/user/settings/billing');
    await person.getByRole('button', { name: 'Got it' }).click();
    await expect(person.getByTestId('balance')).toHaveText('€0.00');
    await expect(person.getByTestId('usage-card')).toContainText('Estimated cost');
    await expect(person.getByTestId('balance-card')).toContainText('Pay as you go');
    await snapEverywhere(person, info, '01-metered-billing');
  });

  await test.step('a billing alert is set on the page', async () => {
    await person.getByRole('button', { name: 'Set an alert' }).click();
    await person.getByLabel('Alert me at (EUR)').fill('15');
    await person.getByRole('button', { name: 'Save alert' }).click();
    await expect(person.getByTestId('billing-alert')).toHaveText(
      'You are alerted when the estimate reaches €15.00.',
    );
  });

  await test.step('the top-up asks for an amount and a provider', async () => {
    await person.getByRole('button', { name: 'Top up' }).click();
    const dialog = person.getByRole('dialog');
    await dialog.getByLabel('Amount (EUR)').fill('25');
    await expect(dialog.getByRole('radio', { name: /Stripe/ })).toBeChecked();
    await snapEverywhere(person, info, '02-top-up');
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  let projectId = '';
  await test.step('the person renders a small draft still in the studio', async () => {
    const created = await call(person, 'post', '/api/create-project', { project_name: 'Signet rings' });
    projectId = ((await created.json()) as { id: string }).id;
    await person.goto(`/projects/files/${projectId}`);
    await person.getByTestId('project-upload-input').setInputFiles([stlPath]);
    await expect(person.getByTestId('project-input')).toHaveCount(1, { timeout: 60_000 });
    await setProjectSettings(person, projectId, {
      engine: 'draft',
      resolution: { width: 96, height: 96 },
      stills: 1,
      video: false,
    });
    const render = { project_id: projectId, category_id: 'ring' };
    expect((await call(person, 'post', '/api/generateAssets', render)).status()).toBe(201);
    await expect
      .poll(
        async () =>
          (await (await call(person, 'get', `/api/browse/projects/files/${projectId}?type=output`)).json())
            .data?.length ?? 0,
        { timeout: 180_000 },
      )
      .toBe(1);
    await person.goto('/user/settings/billing');
  });

  await test.step('a period the balance did not cover, three reminders on: the red bar says why', async () => {
    leaveUnpaidSettlement(userId, 260, 'EUR');
    await person.reload();
    // The red bar over the page (and the billing page's own notice) give the reason.
    const bar = person.getByRole('alert').filter({ hasText: 'Your balance does not cover' }).first();
    await expect(bar).toContainText('2.60');
    await snapEverywhere(person, info, '03-restricted');
  });

  await test.step('while restricted, each of the studio’s downloads says downloading is temporarily disabled', async () => {
    let downloads = 0;
    person.on('download', () => (downloads += 1));
    const disabled = person.getByRole('dialog').filter({ hasText: 'Downloading is temporarily disabled' });
    const refused = async (link: Locator) => {
      await link.click();
      await expect(disabled).toContainText('Check the notice at the top of the page for the reason.');
      await disabled.getByRole('button', { name: "That's horrible!" }).click();
      await expect(disabled).toBeHidden();
    };
    await person.goto(`/projects/files/output/${projectId}`);
    await expect(person.getByTestId('output-card')).toHaveCount(1);
    await person.getByRole('link', { name: 'Download zip' }).click();
    await expect(disabled).toBeVisible();
    await snap(person, info, '03-restricted-output-zip');
    await disabled.getByRole('button', { name: "That's horrible!" }).click();
    await refused(person.getByRole('link', { name: /^Download .+\.png$/ }));
    await person.goto('/gallery/files');
    await refused(person.getByRole('link', { name: 'Download zip' }).first());
    expect(downloads).toBe(0);
    await person.goto('/user/settings/billing');
    await expect(
      person.getByRole('alert').filter({ hasText: 'Your balance does not cover' }).first(),
    ).toBeVisible();
  });

  await test.step('the admin credits the balance: the period is paid, the bar goes without a reload', async () => {
    await page.goto(`/admin/user/${userId}/subscription`);
    await page.getByRole('button', { name: 'Got it' }).click();
    await expect(page.getByTestId('admin-user-subscription')).toContainText('Pay as you go');
    await page.getByLabel('Amount').fill('10.00');
    await page.getByLabel('Note').fill('Welcome credit');
    await snapEverywhere(page, info, '04-admin-credit');
    await page.getByRole('button', { name: 'Credit balance' }).click();
    await expect(page.getByText('The balance was credited.')).toBeVisible();
    await expect(person.getByTestId('balance')).toHaveText('€7.40', { timeout: 15_000 });
    await expect(person.getByRole('alert').filter({ hasText: 'Your balance does not cover' })).toHaveCount(0);
  });

  await test.step('the person is told of the credit in the bell (the gift notification), with the admin’s note', async () => {
    await person.getByRole('button', { name: /^Notifications, [1-9]\d* unread$/ }).click();
    const gift = person.getByTestId('notification').filter({ hasText: 'You received €10.00' });
    await expect(gift).toContainText('€10.00 was added to your balance: “Welcome credit”.');
    await snap(person, info, '04-gift-notification');
    await gift.getByRole('link', { name: 'Open' }).click();
    await expect(person).toHaveURL('/user/settings/billing');
    await expect(person.getByTestId('balance')).toHaveText('€7.40');
  });

  await test.step('the person checks out a top-up; Stripe reports it paid (signed test webhook); the balance grows live', async () => {
    // The checkout the dialog's Continue makes (Stripe's page itself cannot be reached from a test).
    const checkout = await call(person, 'post', '/api/subscriptions/balance/checkout', {
      amount: '25',
      driver: 'stripe',
    });
    expect(checkout.status(), await checkout.text()).toBe(200);
    const { reference } = ((await checkout.json()) as { data: { reference: string } }).data;
    await reportTopUp(reference, 2500);
    await expect(person.getByTestId('balance')).toHaveText('€32.40', { timeout: 15_000 });
    await expect(person.getByTestId('transaction-row').first()).toContainText('+€25.00');
    await snapEverywhere(person, info, '05-topped-up');
  });

  await test.step('a signed payment that matches no checkout moves nothing; the admin sees it to look at', async () => {
    await reportTopUp('NOCHECKOUT', 100_000);
    await page.goto('/admin/payments/payments');
    const events = page.getByTestId('payment-events');
    await expect(events).toContainText('€1,000.00', { timeout: 15_000 });
    await expect(events).toContainText('it matches no checkout made on this instance');
    await expect(person.getByTestId('balance')).toHaveText('€32.40');
    await snapEverywhere(page, info, '07-payment-to-look-at');
  });

  await test.step('the transactions page lists the credit, the settled period and the top-up', async () => {
    await person.goto('/user/settings/transaction');
    await expect(person.getByTestId('transaction-row')).toHaveCount(3);
    await expect(person.getByTestId('transaction-row').filter({ hasText: 'Welcome credit' })).toContainText(
      'Administrator',
    );
    await snapEverywhere(person, info, '06-transactions');
  });
  await context.close();
});
