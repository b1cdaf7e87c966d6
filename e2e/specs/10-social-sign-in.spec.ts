import { expect, test, type Page } from '../support/test';
import { admin, call, ensureInstalled, registerAndSignIn } from '../support/api';
import { startOidcPeer } from '../support/oidc-peer';
import { snap } from '../support/snap';

test.describe.configure({ mode: 'serial' });

const stamp = Date.now();
const pat = { email: `pat-${stamp}@example.test`, email_verified: true, name: 'Pat Provider' };
const quinn = { name: 'Quinn Password', email: `quinn-${stamp}@atelier.test`, password: 'quinn-password-1' };

let peer: Awaited<ReturnType<typeof startOidcPeer>>;

test.beforeAll(async ({ baseURL }) => {
  peer = await startOidcPeer(
    {
      pat,
      // Claims Quinn's address without the provider having confirmed it.
      impostor: { email: quinn.email, email_verified: false, name: 'Not Quinn' },
    },
    `${baseURL}/socialite/peer/callback`,
  );
});
test.afterAll(() => peer.close());

/** Signs in at the test provider's own pages, as a person would: login, then consent. */
async function signInAtProvider(page: Page, login: string) {
  await expect(page).toHaveURL(new RegExp(`^${peer.issuer}/interaction/`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('anything');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

test('the admin adds an OpenID Connect provider; a new person signs in with it and finds it on their profile', async ({
  page,
  browser,
}, info) => {
  await ensureInstalled(page);
  expect(
    (await call(page, 'post', '/api/login', { email: admin.email, password: admin.password })).ok(),
  ).toBe(true);
  const saved = await call(page, 'post', '/api/admin/settings', {
    settings: {
      social_providers: [
        {
          name: 'peer',
          kind: 'oidc',
          label: 'Atelier ID',
          issuer: peer.issuer,
          client_id: peer.client_id,
          client_secret: peer.client_secret,
          enabled: true,
        },
      ],
    },
  });
  expect(saved.status(), await saved.text()).toBe(204);

  const context = await browser.newContext();
  const visitor = await context.newPage();
  await visitor.setViewportSize({ width: 1440, height: 900 });
  await visitor.goto('/sign-in');
  await visitor.getByRole('button', { name: 'Got it' }).click();
  const button = visitor.getByRole('button', { name: 'Continue with Atelier ID' });
  await expect(button).toBeVisible();
  await snap(visitor, info, 'sign-in-with-provider-desktop-light');

  await button.click();
  await signInAtProvider(visitor, 'pat');
  await expect(visitor).toHaveURL(/\/projects$/);
  const me = await (await call(visitor, 'get', '/api/user')).json();
  expect(me.data.attributes.email).toBe(pat.email);
  expect(me.data.attributes.name).toBe(pat.name);

  await visitor.goto('/user/profile');
  const connected = visitor.getByRole('listitem').filter({ hasText: 'Atelier ID' });
  await expect(connected).toContainText(`Connected as ${pat.email}`);
  // The account has no password yet: its only way in cannot be disconnected.
  await expect(connected.getByRole('button', { name: 'Disconnect' })).toBeDisabled();
  await expect(visitor.getByText('This is your only way to sign in.')).toBeVisible();
  await visitor.getByText('Connected accounts').scrollIntoViewIfNeeded();
  await snap(visitor, info, 'profile-connected-desktop-light');
  await visitor.emulateMedia({ colorScheme: 'dark' });
  await snap(visitor, info, 'profile-connected-desktop-dark');
  await visitor.setViewportSize({ width: 390, height: 844 });
  await snap(visitor, info, 'profile-connected-phone-dark');
  await visitor.emulateMedia({ colorScheme: 'light' });
  await snap(visitor, info, 'profile-connected-phone-light');
  await context.close();
});

test('an address the provider did not confirm is refused with what to do; the owner links from the profile', async ({
  browser,
}, info) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await registerAndSignIn(page, quinn);
  await context.clearCookies();

  await page.goto('/sign-in');
  await page.getByRole('button', { name: 'Got it' }).click();
  await page.getByRole('button', { name: 'Continue with Atelier ID' }).click();
  await signInAtProvider(page, 'impostor');
  await expect(page).toHaveURL(/\/sign-in\?social_error=email_unverified$/);
  await expect(page.getByRole('alert')).toContainText('sign in with your password first');
  expect((await call(page, 'get', '/api/user')).status()).toBe(401);
  await snap(page, info, 'sign-in-refused-phone-dark');

  // The provider remembers the impostor's session; a person linking would sign in there afresh.
  await context.clearCookies({ name: /^_(session|interaction)/ });
  // Quinn signs in with the password and links the provider identity from the profile.
  await page.getByLabel('E-mail').fill(quinn.email);
  await page.getByLabel('Password').fill(quinn.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/projects$/);
  await page.goto('/user/profile');
  const line = page.getByRole('listitem').filter({ hasText: 'Atelier ID' });
  await expect(line).toContainText('Not connected');
  await line.getByRole('button', { name: 'Connect' }).click();
  await signInAtProvider(page, 'impostor');
  await expect(page.getByText('Atelier ID is now connected to your account.')).toBeVisible();
  await expect(line).toContainText(`Connected as ${quinn.email}`);
  await snap(page, info, 'profile-linked-phone-dark');

  // With a password, the link can go.
  await line.getByRole('button', { name: 'Disconnect' }).click();
  await expect(line).toContainText('Not connected');
  await context.close();
});
