import { expect, test, type Page } from '../support/test';
import { boxStl } from '../../apps/server/test/projects/support/models';
import { call, ensureInstalled, registerAndSignIn, setProjectSettings } from '../support/api';
import { snapEverywhere } from '../support/snap';

/** Four saves of one model, each a box of other proportions. */
const saves = [boxStl([20, 10, 6]), boxStl([24, 10, 6]), boxStl([24, 14, 6]), boxStl([24, 14, 8])];
const model = (index: number) => ({ name: 'bracket.stl', mimeType: 'model/stl', buffer: saves[index]! });

async function outputs(page: Page, projectId: string) {
  const answer = await call(page, 'get', `/api/browse/projects/files/${projectId}?type=output`);
  return ((await answer.json()).data ?? []) as Array<{
    meta: { model_version: { current: boolean } | null };
  }>;
}

async function versionCount(page: Page, fileId: string) {
  return ((await (await call(page, 'get', `/api/files/${fileId}/versions`)).json()).data ?? [])
    .length as number;
}

/** Saves the model again from the file manager, answering Replace to the name prompt, until it is stored. */
async function replaceInFiles(page: Page, folderId: string, fileId: string, index: number) {
  await page.goto(`/platform/files/${folderId}`);
  await expect(page.getByTestId('item-row').filter({ hasText: 'bracket.stl' })).toBeVisible();
  await page.getByTestId('upload-files-input').setInputFiles(model(index));
  const prompt = page.getByRole('dialog', { name: 'A file with this name is already here' });
  await prompt.getByRole('button', { name: 'Replace' }).click();
  await expect(prompt).toBeHidden();
  await expect.poll(() => versionCount(page, fileId), { timeout: 60_000 }).toBe(index + 1);
}

test('a model replaced twice, its first version restored: the outputs say which version they came from and the project re-renders', async ({
  page,
}, info) => {
  test.setTimeout(420_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await ensureInstalled(page);
  await registerAndSignIn(page, {
    name: 'Vera Versions',
    email: `vera-models-${Date.now()}@atelier.test`,
    password: 'vera-password-1',
  });
  const created = await call(page, 'post', '/api/create-project', { project_name: 'Brackets' });
  const project = (await created.json()).data;
  const projectId: string = project.id;
  const folderId: string = project.attributes.folder_id;
  await setProjectSettings(page, projectId, {
    engine: 'draft',
    resolution: { width: 96, height: 96 },
    stills: 1,
    video: false,
  });
  const banner = page.getByTestId('outdated-models');
  // The cookie notice would cover the outputs in the phone screenshots.
  await page.goto(`/projects/files/${projectId}`);
  await page.getByRole('button', { name: 'Got it' }).click();

  let fileId = '';
  await test.step('the model is uploaded to the project and rendered', async () => {
    await page.getByTestId('project-upload-input').setInputFiles(model(0));
    await expect(page.getByTestId('project-input')).toHaveCount(1, { timeout: 60_000 });
    const inputs = await call(page, 'get', `/api/browse/projects/files/${projectId}?type=input`);
    fileId = (await inputs.json()).data[0].id;
    await page.getByRole('button', { name: 'Render all' }).click();
    await expect.poll(async () => (await outputs(page, projectId)).length, { timeout: 180_000 }).toBe(1);
  });

  await test.step('replaced from My files: the project says its outputs are of an earlier version and re-renders', async () => {
    await replaceInFiles(page, folderId, fileId, 1);
    // The projects list says it on the project's card, leading to the page that offers Re-render.
    await page.goto('/projects');
    const badge = page.getByTestId('project-outdated');
    await expect(badge).toHaveText('New model version');
    await snapEverywhere(page, info, '01-projects-new-version');
    await badge.click();
    await expect(page).toHaveURL(new RegExp(`/projects/files/${projectId}$`));
    await expect(banner).toContainText('One model has a new version');
    await page.goto(`/projects/files/output/${projectId}`);
    await expect(banner).toContainText('One model has a new version');
    await expect(page.getByTestId('model-version')).toHaveText([/^From the version of /]);
    await snapEverywhere(page, info, '01-outputs-outdated');
    await banner.getByRole('button', { name: 'Re-render' }).click();
    await expect(page.getByText('One render is queued.', { exact: false })).toBeVisible();
    await expect(banner).toBeHidden();
    await expect.poll(async () => (await outputs(page, projectId)).length, { timeout: 180_000 }).toBe(2);
  });

  await test.step('replaced again, then its versions opened and the first restored', async () => {
    await replaceInFiles(page, folderId, fileId, 2);
    await page.getByRole('button', { name: 'Actions for bracket.stl' }).first().click();
    await page.getByRole('menuitem', { name: 'Versions', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Details and versions' });
    const versions = dialog.getByRole('listitem');
    await expect(versions).toHaveCount(3);
    await expect(versions.first()).toContainText('Current');
    await snapEverywhere(page, info, '02-model-versions');
    await versions.last().getByRole('button', { name: 'Restore' }).click();
    await expect(page.getByText(/Version restored/)).toBeVisible();
    await expect(versions.first()).toContainText('Current');
    // The oldest entry was the first save: the file's bytes are that save's again, not the second's.
    const restored = Buffer.from(await (await call(page, 'get', `/file/${fileId}`)).body());
    expect(restored.equals(saves[0]!)).toBe(true);
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  await test.step('the project re-renders the restored version; each output names its version', async () => {
    await page.goto(`/projects/files/${projectId}`);
    await expect(page.getByTestId('input-outdated')).toHaveText('Its outputs are of an earlier version');
    await snapEverywhere(page, info, '03-model-restored');
    await banner.getByRole('button', { name: 'Re-render' }).click();
    await expect(banner).toBeHidden();
    await expect.poll(async () => (await outputs(page, projectId)).length, { timeout: 180_000 }).toBe(3);
    // Newest first: the re-render of the restored first version, the second's, the first's (current again).
    expect((await outputs(page, projectId)).map((output) => output.meta.model_version?.current)).toEqual([
      true,
      false,
      true,
    ]);
    await page.goto(`/projects/files/output/${projectId}`);
    await expect(page.getByTestId('model-version')).toHaveText([
      'From the current version',
      /^From the version of /,
      'From the current version',
    ]);
    await expect(banner).toBeHidden();
    await snapEverywhere(page, info, '04-rerendered');
  });

  await test.step('set to re-render by itself, the next save is rendered without a click', async () => {
    await page.goto(`/projects/files/customize/${projectId}`);
    const automatic = page.getByRole('switch', { name: /^Re-render when a model changes/ });
    await expect(automatic).not.toBeChecked();
    await automatic.click();
    await expect(automatic).toBeChecked();
    await expect
      .poll(async () => {
        const answer = await call(page, 'get', `/api/browse/projects/${projectId}`);
        return (await answer.json()).meta?.root?.attributes?.settings?.rerender_on_change ?? null;
      })
      .toBe(true);
    await automatic.scrollIntoViewIfNeeded();
    await snapEverywhere(page, info, '05-rerender-setting');
    await replaceInFiles(page, folderId, fileId, 3);
    await expect.poll(async () => (await outputs(page, projectId)).length, { timeout: 180_000 }).toBe(4);
    expect((await outputs(page, projectId))[0]!.meta.model_version?.current).toBe(true);
  });
});
