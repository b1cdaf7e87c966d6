import { expect, type APIResponse, type Page } from '@playwright/test';
import { printedSetupLink } from './setup-link';

export interface Person {
  name: string;
  email: string;
  password: string;
}

export const admin: Person = { name: 'Ada Admin', email: 'ada@atelier.test', password: 'admin-password-1' };

/** Calls the API as the page's browser session, echoing the XSRF cookie like the web client does. */
export async function call(
  page: Page,
  method: 'get' | 'post',
  path: string,
  data?: unknown,
): Promise<APIResponse> {
  if (method === 'get') return page.request.get(path);
  await page.request.get('/api/ping');
  const cookies = await page.context().cookies();
  const xsrf = cookies.find((cookie) => cookie.name === 'XSRF-TOKEN')?.value ?? '';
  return page.request.post(path, {
    data,
    headers: { 'X-XSRF-TOKEN': decodeURIComponent(xsrf), 'X-Requested-With': 'XMLHttpRequest' },
  });
}

/** Sets a project's studio settings one key at a time, as the studio's settings form saves them. */
export async function setProjectSettings(page: Page, projectId: string, settings: Record<string, unknown>) {
  for (const [updateKey, updateValue] of Object.entries(settings)) {
    const update = { project_id: projectId, updateKey, updateValue };
    expect((await call(page, 'post', '/api/update-project-settings', update)).status()).toBe(200);
  }
}

/**
 * Renders a project's models with these studio settings, as the studio's "Render all" asks the
 * server to, and waits until the project has this many outputs.
 */
export async function renderProject(
  page: Page,
  projectId: string,
  { settings, category, outputs }: { settings: Record<string, unknown>; category: string; outputs: number },
): Promise<void> {
  await setProjectSettings(page, projectId, settings);
  const started = await call(page, 'post', '/api/generateAssets', {
    project_id: projectId,
    category_id: category,
  });
  expect(started.status()).toBe(201);
  const outputsNow = async () => {
    const answer = await call(page, 'get', `/api/browse/projects/files/${projectId}?type=output`);
    return (await answer.json()).data?.length ?? 0;
  };
  await expect.poll(outputsNow, { timeout: 180_000 }).toBe(outputs);
}

/** A folder's items (the root for `all`) as the page's session lists them, up to 500. */
export async function listing(page: Page, folder = 'all') {
  const answer = await call(page, 'get', `/api/browse/folders/${folder}?per_page=500`);
  expect(answer.ok()).toBe(true);
  return (await answer.json()) as { data: { id: string; type: string; attributes: { name: string } }[] };
}

/** Installs the instance through the setup API when a spec runs on its own; a no-op once installed. */
export async function ensureInstalled(page: Page): Promise<void> {
  const config = await (await call(page, 'get', '/api/config')).json();
  if (config.installation === 'installation-done') return;
  // Opening the printed link, as the operator would, gives the browser the wizard's token.
  const link = await printedSetupLink();
  await page.goto(link.pathname + link.search);
  await expect(page).toHaveURL(/\/setup-wizard\/status-check$/);
  const steps: [string, unknown][] = [
    ['/api/setup/database', { connection: 'sqlite' }],
    [
      '/api/setup/environment-setup',
      { storage: { driver: 'local' }, mail: { driver: 'log' }, broadcasting: { driver: 'socket.io' } },
    ],
    ['/api/setup/app-setup', { title: 'Atelier Test Studio', contactEmail: 'hello@atelier.test' }],
    ['/api/setup/admin-setup', { ...admin, password_confirmation: admin.password }],
  ];
  for (const [path, body] of steps) {
    const answer = await call(page, 'post', path, body);
    expect(answer.ok(), `${path}: ${await answer.text()}`).toBe(true);
  }
  await page.context().clearCookies();
}

/** Registers a new person and leaves the page's context signed in as them. */
export async function registerAndSignIn(page: Page, person: Person): Promise<void> {
  const answer = await call(page, 'post', '/api/register', {
    ...person,
    password_confirmation: person.password,
  });
  expect(answer.status(), await answer.text()).toBe(201);
}

/** Signs the page's context in as an existing person (the admin of the install, or one registered). */
export async function signIn(page: Page, person: Person): Promise<void> {
  const answer = await call(page, 'post', '/api/login', { email: person.email, password: person.password });
  expect(answer.status(), await answer.text()).toBe(200);
}
