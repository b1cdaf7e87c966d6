import { expect, test, type Page } from '../support/test';
import { boxStl } from '../../apps/server/test/projects/support/models';
import { call, ensureInstalled, registerAndSignIn, setProjectSettings } from '../support/api';
import { snapEverywhere } from '../support/snap';

async function outputNames(page: Page, projectId: string): Promise<string[]> {
  const answer = await call(page, 'get', `/api/browse/projects/files/${projectId}?type=output`);
  return (((await answer.json()).data ?? []) as Array<{ attributes: { name: string } }>)
    .map((output) => output.attributes.name)
    .sort();
}

test('a ring in two colourways: both defined in the studio, rendered as two sets named and grouped by colourway', async ({
  page,
}, info) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await ensureInstalled(page);
  await registerAndSignIn(page, {
    name: 'Cora Colours',
    email: `cora-colourways-${Date.now()}@atelier.test`,
    password: 'cora-password-1',
  });
  const created = await call(page, 'post', '/api/create-project', { project_name: 'Signet rings' });
  const projectId: string = (await created.json()).data.id;
  // The draft engine at a small size, one still: the journey is about the sets, not the look.
  await setProjectSettings(page, projectId, {
    category_id: 'ring',
    engine: 'draft',
    resolution: { width: 128, height: 128 },
    stills: 1,
    video: false,
  });
  await page.goto(`/projects/files/${projectId}`);
  await page.getByRole('button', { name: 'Got it' }).click();
  await page
    .getByTestId('project-upload-input')
    .setInputFiles({ name: 'signet.stl', mimeType: 'model/stl', buffer: boxStl([18, 18, 4]) });
  await expect(page.getByTestId('project-input')).toHaveCount(1, { timeout: 60_000 });

  await test.step('two colourways are added in the studio: yellow gold, and rose gold renamed', async () => {
    await page.goto(`/projects/files/customize/${projectId}`);
    const editor = page.getByTestId('colourways');
    await expect(editor.getByText('No colourways yet')).toBeVisible();
    await editor.getByRole('button', { name: 'Add colourway' }).click();
    await editor.getByRole('button', { name: 'Add colourway' }).click();
    const colourways = editor.getByTestId('colourway');
    await expect(colourways).toHaveCount(2);
    await expect(colourways.nth(0).getByLabel('Colourway 1')).toHaveValue('Yellow gold');
    await expect(colourways.nth(1).getByLabel('Colourway 2')).toHaveValue('White gold');
    await colourways.nth(1).getByLabel('Finish').selectOption({ label: 'Rose gold' });
    await colourways.nth(1).getByLabel('Colourway 2').fill('Rose gold');
    await editor.getByRole('button', { name: 'Save colourways' }).click();
    await expect(editor.getByRole('button', { name: 'Save colourways' })).toBeDisabled();
    await expect
      .poll(async () => {
        const answer = await call(page, 'get', `/api/browse/projects/${projectId}`);
        return ((await answer.json()).meta.root.attributes.settings.variants ?? []).map(
          (v: { id: string }) => v.id,
        );
      })
      .toEqual(['yellow-gold', 'rose-gold']);
    // Rose gold shown in the view before anything is rendered.
    const preview = editor.getByRole('button', { name: 'Show Rose gold in the view' });
    await preview.click();
    await expect(preview).toHaveAttribute('aria-pressed', 'true');
    await snapEverywhere(page, info, '01-colourway-in-view');
    await editor.scrollIntoViewIfNeeded();
    await snapEverywhere(page, info, '01-colourways-editor');
  });

  await test.step('both are picked to render and come back as two sets, named after them', async () => {
    await page.goto(`/projects/files/${projectId}`);
    const picker = page.getByRole('group', { name: 'Colourways to render' });
    await expect(picker.getByRole('button', { name: 'Yellow gold' })).toHaveAttribute('aria-pressed', 'true');
    await expect(picker.getByRole('button', { name: 'Rose gold' })).toHaveAttribute('aria-pressed', 'true');
    await snapEverywhere(page, info, '02-colourways-to-render');
    await page.getByRole('button', { name: 'Render all' }).click();
    await expect
      .poll(() => outputNames(page, projectId), { timeout: 180_000 })
      .toEqual(['signet-three-quarter-front-rose-gold.png', 'signet-three-quarter-front-yellow-gold.png']);
  });

  await test.step('the outputs page shows one group per colourway', async () => {
    await page.goto(`/projects/files/output/${projectId}`);
    const groups = page.getByTestId('output-group');
    // In the order of the project's colourways, whichever rendered first.
    await expect(groups.getByRole('heading')).toHaveText(['Yellow gold', 'Rose gold']);
    for (const name of ['Yellow gold', 'Rose gold']) {
      const group = groups.filter({ has: page.getByRole('heading', { name }) });
      await expect(group.getByTestId('output-card')).toHaveCount(1);
      await expect(group.getByTestId('output-card')).toContainText(name.toLowerCase().replace(' ', '-'));
    }
    await snapEverywhere(page, info, '03-outputs-by-colourway');
  });

  await test.step('one colourway left out of a run renders only the other', async () => {
    await page.goto(`/projects/files/${projectId}`);
    await page
      .getByRole('group', { name: 'Colourways to render' })
      .getByRole('button', { name: 'Yellow gold' })
      .click();
    await page.getByRole('button', { name: 'Render all' }).click();
    await expect.poll(async () => (await outputNames(page, projectId)).length, { timeout: 180_000 }).toBe(3);
    expect(await outputNames(page, projectId)).toContain('signet-three-quarter-front-rose-gold (1).png');
  });
});
