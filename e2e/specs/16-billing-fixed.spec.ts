import { readFile } from 'node:fs/promises';
import { expect, test } from '../support/test';
import { admin, call, ensureInstalled, registerAndSignIn, signIn, type Person } from '../support/api';
import { snapEverywhere } from '../support/snap';
import { postStripeEvent, stripeId } from '../support/stripe-webhooks';

const WEBHOOK_SECRET = 'whsec_e2e_fixed_billing_journey';
const subscriber: Person = {
  name: 'Sami Subscriber',
  email: 'sami@atelier.test',
  password: 'sami-password-1',
};

test('an admin sets up fixed plans with Stripe; a person subscribes (a signed test webhook), sees the plan live, the larger storage and the invoice', async ({
  page,
  browser,
  baseURL,
}, info) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await ensureInstalled(page);
  await signIn(page, admin);

  await test.step('the admin chooses fixed plans and allows Stripe', async () => {
    await page.goto('/admin/payments/billings');
    await expect(page.getByRole('heading', { name: 'Billings', level: 1 })).toBeVisible();
    const cookies = page.getByRole('button', { name: 'Got it' });
    if (await cookies.isVisible()) await cookies.click();
    await page.getByRole('radio', { name: /Fixed plans/ }).click();
    await page.getByRole('switch', { name: /Stripe/ }).click();
    await page.getByLabel('Currency').fill('USD');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Settings saved.').last()).toBeVisible();
    await snapEverywhere(page, info, '01-admin-billings');
  });

  await test.step('the admin saves Stripe keys and sees the webhook address', async () => {
    await page.getByRole('link', { name: 'Payment providers' }).click();
    await expect(page).toHaveURL(/\/admin\/payments\/payments$/);
    await page.getByLabel('Publishable key').fill('pk_test_e2e');
    await page.getByLabel('Secret key').first().fill('sk_test_e2e');
    await page.getByLabel('Webhook signing secret').fill(WEBHOOK_SECRET);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Settings saved.').last()).toBeVisible();
    await expect(page.getByText('Set — stored and never shown')).toHaveCount(2);
    await expect(page.getByTestId('webhook-stripe')).toHaveText(/\/api\/subscriptions\/stripe\/webhooks$/);
    await snapEverywhere(page, info, '02-admin-providers');
  });

  let planId = '';
  await test.step('the admin creates a fixed plan', async () => {
    await page.goto('/admin/plan/create/fixed');
    await page.getByLabel('Name').fill('Atelier Pro');
    await page.getByLabel('Description').fill('Room for a studio’s renders');
    await page.getByLabel('Price').fill('12.50');
    await page.getByLabel('Storage (GB)').fill('250');
    await page.getByRole('button', { name: 'Create plan' }).click();
    await expect(page).toHaveURL(/\/admin\/plan\/[0-9a-f-]+\/fixed\/settings$/);
    planId = /\/admin\/plan\/([0-9a-f-]+)\//.exec(page.url())![1]!;
  });

  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const person = await context.newPage();
  await registerAndSignIn(person, subscriber);
  const userId = ((await (await call(person, 'get', '/api/user')).json()) as { data: { id: string } }).data
    .id;

  await test.step('the person sees the plan as a pricing card and the providers to pay with', async () => {
    await person.goto('/user/settings/billing');
    // A new browser: the cookie notice shows once; out of the way of the screenshots.
    await person.getByRole('button', { name: 'Got it' }).click();
    const card = person.getByTestId('pricing-card').filter({ hasText: 'Atelier Pro' });
    await expect(card).toContainText('$12.50');
    await expect(card).toContainText('250 GB of storage');
    await snapEverywhere(person, info, '03-pricing');
    await card.getByRole('button', { name: 'Subscribe' }).click();
    await expect(person.getByRole('dialog')).toContainText('Subscribe to Atelier Pro');
    await expect(person.getByRole('radio', { name: /Stripe/ })).toBeChecked();
    await snapEverywhere(person, info, '04-checkout');
    await person.getByRole('button', { name: 'Close' }).click();
  });

  await test.step('Stripe tells the instance the checkout is paid; the page shows the plan live', async () => {
    const subscription = stripeId('sub');
    const periodEnd = Math.floor(Date.now() / 1000) + 30 * 86_400;
    const metadata = { plan_id: planId, user_id: userId };
    await postStripeEvent(baseURL!, WEBHOOK_SECRET, 'checkout.session.completed', {
      id: stripeId('cs_test'),
      object: 'checkout.session',
      mode: 'subscription',
      payment_status: 'paid',
      client_reference_id: userId,
      customer: stripeId('cus'),
      subscription,
      metadata: { ...metadata, reference: 'E2EREF0016' },
    });
    await postStripeEvent(baseURL!, WEBHOOK_SECRET, 'customer.subscription.updated', {
      id: subscription,
      object: 'subscription',
      status: 'active',
      cancel_at_period_end: false,
      current_period_end: periodEnd,
      metadata,
      items: { data: [{ price: { id: stripeId('price'), metadata: { plan_id: planId } } }] },
    });
    await postStripeEvent(baseURL!, WEBHOOK_SECRET, 'invoice.paid', {
      id: stripeId('in'),
      object: 'invoice',
      currency: 'usd',
      amount_paid: 1250,
      subscription,
      subscription_details: { metadata },
    });
    // No reload: the realtime update brings the subscription in.
    const card = person.getByTestId('subscription-card');
    await expect(card).toContainText('Atelier Pro', { timeout: 15_000 });
    await expect(card.getByTestId('subscription-status')).toHaveText('Active');
    await expect(card).toContainText('Stripe');
    await expect(person.getByTestId('transaction-row').first()).toContainText('$12.50');
    await snapEverywhere(person, info, '05-subscribed');
  });

  await test.step('the plan’s storage applies', async () => {
    await person.goto('/user/settings/storage');
    await expect(person.getByText(/of 250 GB/)).toBeVisible();
  });

  await test.step('the invoice downloads from the transactions page', async () => {
    await person.goto('/user/settings/transaction');
    const row = person.getByTestId('transaction-row').first();
    await expect(row).toContainText('Completed');
    await snapEverywhere(person, info, '06-transactions');
    const [download] = await Promise.all([
      person.waitForEvent('download'),
      row.getByRole('link', { name: 'Invoice' }).click(),
    ]);
    expect((await readFile(await download.path())).subarray(0, 5).toString()).toBe('%PDF-');
  });

  await test.step('the cancel asks first and says until when the plan stays', async () => {
    await person.goto('/user/settings/billing');
    await person.getByRole('button', { name: 'Cancel subscription' }).click();
    await expect(person.getByRole('dialog')).toContainText('Your plan stays active until');
    await snapEverywhere(person, info, '07-cancel-confirm');
    await person.keyboard.press('Escape');
  });

  await test.step('the admin sees the subscription and the transaction', async () => {
    await page.goto('/admin/subscriptions');
    await expect(page.getByTestId('subscription-row').filter({ hasText: subscriber.name })).toContainText(
      'Atelier Pro',
    );
    await snapEverywhere(page, info, '08-admin-subscriptions');
    await page.goto('/admin/invoices');
    await expect(page.getByTestId('transaction-row').filter({ hasText: subscriber.name })).toContainText(
      '$12.50',
    );
    await snapEverywhere(page, info, '09-admin-invoices');
    const [adminCopy] = await Promise.all([
      page.waitForEvent('download'),
      page
        .getByTestId('transaction-row')
        .filter({ hasText: subscriber.name })
        .getByRole('link', { name: 'Invoice' })
        .click(),
    ]);
    expect((await readFile(await adminCopy.path())).subarray(0, 5).toString()).toBe('%PDF-');
    await page.goto(`/admin/user/${userId}/subscription`);
    await expect(page.getByTestId('admin-user-subscription')).toContainText('Atelier Pro');
  });

  await test.step('with no provider left to take the money, the admin is warned and a newcomer is offered no plan', async () => {
    await page.goto('/admin/payments/billings');
    const warning = page.getByRole('status').filter({ hasText: 'Nobody can buy a plan yet' });
    await expect(page.getByRole('radio', { name: /Fixed plans/ })).toBeChecked();
    await expect(warning).toHaveCount(0);
    await page.getByRole('switch', { name: /Stripe/ }).click();
    // Said before saving, as the choice is made, and after.
    // Stripe keeps its keys: the warning says it is switched off, not that keys are missing.
    await expect(warning).toContainText('Stripe has its keys but is switched off');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Settings saved.').last()).toBeVisible();
    await page.reload();
    await expect(warning).toBeVisible();
    await snapEverywhere(page, info, '10-admin-unpayable');

    const newcomerContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const newcomer = await newcomerContext.newPage();
    await registerAndSignIn(newcomer, {
      name: 'Nora Newcomer',
      email: `nora-${Date.now()}@atelier.test`,
      password: 'nora-password-1',
    });
    const plans = await call(newcomer, 'get', '/api/subscriptions/plans');
    expect(plans.ok(), await plans.text()).toBe(true);
    expect(((await plans.json()) as { data: unknown[] }).data).toEqual([]);
    await newcomer.goto('/user/settings/billing');
    await newcomer.getByRole('button', { name: 'Got it' }).click();
    await expect(newcomer.getByText('No plans to choose from yet')).toBeVisible();
    await expect(newcomer.getByText(/^Plans can’t be bought yet: no way to pay is set up/)).toBeVisible();
    await expect(newcomer.getByTestId('pricing-card')).toHaveCount(0);
    await snapEverywhere(newcomer, info, '11-no-plan-to-buy');
    await newcomerContext.close();

    // Stripe allowed again: the warning goes and the plan is offered once more.
    await page.getByRole('switch', { name: /Stripe/ }).click();
    await expect(warning).toHaveCount(0);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Settings saved.').last()).toBeVisible();
    const again = await call(person, 'get', '/api/subscriptions/plans');
    expect(((await again.json()) as { data: { id: string }[] }).data.map((plan) => plan.id)).toContain(
      planId,
    );
  });
  await context.close();
});
