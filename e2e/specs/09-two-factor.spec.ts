import { expect, test, type Page } from '../support/test';
import { Secret, TOTP } from 'otpauth';
import { ensureInstalled, registerAndSignIn, type Person } from '../support/api';
import { snap } from '../support/snap';

const stamp = Date.now();
const katherine: Person = {
  name: 'Katherine Johnson',
  email: `katherine-${stamp}@atelier.test`,
  password: 'katherine-password-1',
};

/**
 * What an authenticator app holding `secret` shows half a minute from now: the server accepts the
 * step after its own, and that step is later than the one confirming used, so it is not a replay.
 */
const nextCode = (secret: string) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + 30_000 });

async function signInWithPassword(page: Page): Promise<void> {
  await page.goto('/sign-in');
  await page.getByLabel('E-mail').fill(katherine.email);
  await page.getByLabel('Password', { exact: true }).fill(katherine.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor check' })).toBeVisible();
}

async function logOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

test('two-factor sign-in from turning it on to signing in with a code and with a recovery code', async ({
  page,
}, info) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await ensureInstalled(page);
  await registerAndSignIn(page, katherine);
  await page.goto('/user/profile');
  await page.getByRole('button', { name: 'Got it' }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
  await expect(page.getByText('Off. Signing in needs only your password.')).toBeVisible();

  let secret = '';
  let codes: string[] = [];
  await test.step('turn it on: the password, the QR code and key, a first code, the recovery codes', async () => {
    const password = page.getByLabel('Your password');
    await password.fill('not my password');
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expect(page.getByText('This is not your current password.')).toBeVisible();
    await password.fill(katherine.password);
    await page.getByRole('button', { name: 'Turn on' }).click();

    await expect(page.getByRole('img', { name: 'QR code to scan with an authenticator app' })).toBeVisible();
    const key = page.getByLabel('Setup key');
    secret = (await key.inputValue()).replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await snap(page, info, '01-setup');

    const code = page.getByLabel('Code from the app');
    await code.fill('000000' === nextCode(secret) ? '111111' : '000000');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(
      page.getByText('This code is not right, or it was already used.', { exact: false }),
    ).toBeVisible();
    await code.fill(TOTP.generate({ secret: Secret.fromBase32(secret) }));
    await page.getByRole('button', { name: 'Confirm' }).click();

    const dialog = page.getByRole('dialog', { name: 'Save your recovery codes' });
    await expect(dialog).toBeVisible();
    codes = await dialog.getByRole('listitem').allInnerTexts();
    expect(codes).toHaveLength(10);
    for (const each of codes) expect(each).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`recovery-codes-${katherine.email}.txt`);
    const saved = await download.createReadStream().then(
      (stream) =>
        new Promise<string>((resolve) => {
          let text = '';
          stream.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          stream.on('end', () => resolve(text));
        }),
    );
    expect(saved.trim().split('\n')).toEqual(codes);
    await snap(page, info, '02-recovery-codes');
    await dialog.getByRole('button', { name: 'I have saved them' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('10 of 10 recovery codes left.')).toBeVisible();
    await expect(page.getByText(/^On since /)).toBeVisible();
    await snap(page, info, '03-on');
  });

  await test.step('on a phone, in the dark', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByRole('heading', { name: 'Two-factor authentication' }).scrollIntoViewIfNeeded();
    await snap(page, info, '04-on-phone-dark');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  await test.step('sign out, then in: the password alone opens no session, the code does', async () => {
    await logOut(page);
    await signInWithPassword(page);
    expect((await page.request.get('/api/user')).status()).toBe(401);
    await snap(page, info, '05-challenge');
    await page.getByLabel('Code', { exact: true }).fill('12345');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByText('Enter the 6 digits your authenticator app shows.')).toBeVisible();
    await page.getByLabel('Code', { exact: true }).fill(nextCode(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/projects/);
    expect((await page.request.get('/api/user')).status()).toBe(200);
  });

  await test.step('sign out, then in with a recovery code, which works once', async () => {
    await logOut(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await signInWithPassword(page);
    await snap(page, info, '06-challenge-phone-dark');
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await expect(page.getByRole('heading', { name: 'Use a recovery code' })).toBeVisible();
    await page.getByLabel('Recovery code').fill(codes[0]!);
    await snap(page, info, '07-recovery-phone-dark');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/projects/);
    await page.setViewportSize({ width: 1440, height: 900 });

    await page.goto('/user/profile');
    await expect(page.getByText('9 of 10 recovery codes left.')).toBeVisible();
    await snap(page, info, '08-codes-left-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    await logOut(page);
    await signInWithPassword(page);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(codes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByText('This recovery code is not right, or it was already used.')).toBeVisible();
    await snap(page, info, '09-recovery-used');
  });
});
