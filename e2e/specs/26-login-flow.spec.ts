import { expect, test, type APIRequestContext, type Page } from '../support/test';
import { Secret, TOTP } from 'otpauth';
import { call, ensureInstalled, registerAndSignIn, type Person } from '../support/api';
import { snap, snapEverywhere } from '../support/snap';

const grace: Person = {
  name: 'Grace Hopper',
  email: `grace-${Date.now()}@atelier.test`,
  password: 'grace-password-1',
};
/** What Debian's nextcloudcmd 3.7 sends as its User-Agent. */
const DESKTOP_AGENT =
  'Mozilla/5.0 (Linux) mirall/3.7.3git (Nextcloud, debian-6.1.0-28-amd64 ClientArchitecture: x86_64 OsArchitecture: x86_64)';
const CLIENT = 'Nextcloud desktop 3.7.3 on Linux';

/** The step after the authenticator's current one, so it is never the code that confirmed the secret. */
const nextCode = (secret: string) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + 30_000 });

/** Turns two-factor sign-in on for the page's person, as the profile page does; returns the secret. */
async function turnOnTwoFactor(page: Page): Promise<string> {
  const begun = await call(page, 'post', '/api/user/two-factor-authentication', { password: grace.password });
  expect(begun.status()).toBe(200);
  const { secret } = (await begun.json()) as { secret: string };
  const code = TOTP.generate({ secret: Secret.fromBase32(secret) });
  expect((await call(page, 'post', '/api/user/confirmed-two-factor-authentication', { code })).status()).toBe(
    200,
  );
  return secret;
}

/** A PROPFIND of the person's files as a WebDAV client signs in: the e-mail and an app password. */
const propfind = (client: APIRequestContext, loginName: string, password: string) =>
  client.fetch(`/remote.php/dav/files/${encodeURIComponent(loginName)}/`, {
    method: 'PROPFIND',
    headers: {
      depth: '1',
      authorization: `Basic ${Buffer.from(`${loginName}:${password}`).toString('base64')}`,
    },
  });

test('a sync client signs in through the browser with a second factor and gets an app password of its own', async ({
  page,
  playwright,
  baseURL,
}, info) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await ensureInstalled(page);
  await registerAndSignIn(page, grace);
  const secret = await turnOnTwoFactor(page);
  await page.context().clearCookies();

  // The client: no browser, no cookies of the person's, its own User-Agent.
  const client = await playwright.request.newContext({
    baseURL,
    userAgent: DESKTOP_AGENT,
  });
  const started = await client.post('/index.php/login/v2');
  expect(started.status()).toBe(200);
  const flow = (await started.json()) as { poll: { token: string; endpoint: string }; login: string };
  const poll = () => client.post(new URL(flow.poll.endpoint).pathname, { form: { token: flow.poll.token } });
  expect((await poll()).status()).toBe(404);

  await test.step('the person opens the page, signs in with a code, sees the client and grants it', async () => {
    await page.goto(new URL(flow.login).pathname);
    await expect(page).toHaveURL(/\/sign-in\?redirect=/);
    const cookies = page.getByRole('button', { name: 'Got it' });
    if (await cookies.isVisible()) await cookies.click();
    await page.getByLabel('E-mail').fill(grace.email);
    await page.getByLabel('Password', { exact: true }).fill(grace.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Two-factor check' })).toBeVisible();
    await page.getByLabel('Code', { exact: true }).fill(nextCode(secret));
    await page.getByRole('button', { name: 'Verify' }).click();

    await expect(page).toHaveURL(new URL(flow.login).pathname);
    await expect(page.getByRole('heading', { name: `Connect ${CLIENT}?` })).toBeVisible();
    await expect(page.getByText(DESKTOP_AGENT)).toBeVisible();
    await expect(page.getByText(grace.email)).toBeVisible();
    // Still waiting for the person.
    expect((await poll()).status()).toBe(404);
    await snapEverywhere(page, info, '01-grant');

    await page.getByRole('button', { name: 'Grant access' }).click();
    await expect(page.getByRole('heading', { name: `${CLIENT} is connected` })).toBeVisible();
    await snapEverywhere(page, info, '02-granted');
  });

  let credentials = { server: '', loginName: '', appPassword: '' };
  await test.step('the poll gets the credentials once, and they open the files over WebDAV', async () => {
    const answer = await poll();
    expect(answer.status()).toBe(200);
    credentials = await answer.json();
    expect(credentials.server).toBe(new URL(flow.login).origin);
    expect(credentials.loginName).toBe(grace.email);
    expect((await poll()).status()).toBe(404);
    expect((await propfind(client, credentials.loginName, credentials.appPassword)).status()).toBe(207);
    // Never the account password.
    expect((await propfind(client, credentials.loginName, grace.password)).status()).toBe(401);
  });

  await test.step('the app password is listed under the client’s name; revoking it shuts the client out', async () => {
    await page.getByRole('link', { name: 'See your app passwords' }).click();
    const line = page
      .getByRole('list', { name: 'App passwords' })
      .getByRole('listitem')
      .filter({ hasText: CLIENT });
    await expect(line).toContainText('last used');
    // A full-page capture of a scrolled page repeats the sticky header mid-way.
    await page.evaluate(() => window.scrollTo(0, 0));
    await snap(page, info, '03-listed');
    await line.getByRole('button', { name: `Revoke ${CLIENT}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await expect(page.getByText(`“${CLIENT}” is revoked.`)).toBeVisible();
    expect((await propfind(client, credentials.loginName, credentials.appPassword)).status()).toBe(401);
  });

  await test.step('the sync clients page says what to enter in each app', async () => {
    // The revocation's toast has gone before the page is pictured.
    await expect(page.getByText(`“${CLIENT}” is revoked.`)).toBeHidden({ timeout: 15_000 });
    await page.getByRole('link', { name: 'See how' }).click();
    await expect(page.getByRole('heading', { name: 'Sync clients', level: 1 })).toBeVisible();
    await expect(page.getByRole('code')).toHaveText(new URL(flow.login).origin);
    await snapEverywhere(page, info, '04-sync-clients');
  });

  await test.step('a refused flow and an unknown one say the sign-in has ended', async () => {
    const refused = (await (await client.post('/index.php/login/v2')).json()) as typeof flow;
    await page.goto(new URL(refused.login).pathname);
    await expect(page.getByRole('heading', { name: `Connect ${CLIENT}?` })).toBeVisible();
    await page.getByRole('button', { name: 'Refuse' }).click();
    await expect(page.getByRole('heading', { name: 'Access refused' })).toBeVisible();
    const refusedPoll = await client.post(new URL(refused.poll.endpoint).pathname, {
      form: { token: refused.poll.token },
    });
    expect(refusedPoll.status()).toBe(404);
    await page.goto(new URL(refused.login).pathname);
    await expect(page.getByRole('heading', { name: 'This sign-in has ended' })).toBeVisible();
    await snapEverywhere(page, info, '05-ended');
  });
  await client.dispose();
});
