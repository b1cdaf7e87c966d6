import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Browser, type Page } from '../support/test';
import { call, ensureInstalled, registerAndSignIn, type Person } from '../support/api';
import { mailedLink } from '../support/mailbox';
import { dropFromDesktop } from '../support/desktop-drop';
import { snap, snapEverywhere } from '../support/snap';
import { sha256 } from '../support/zip';

test.describe.configure({ mode: 'serial' });

// The editor's desktop: one file to drop into the team folder.
const desktop = mkdtempSync(join(tmpdir(), 'atelier-team-'));
const moodboard = 'Launch moodboard: brushed steel, warm light, a single orange accent.\n';
writeFileSync(join(desktop, 'moodboard.txt'), moodboard);

const row = (page: Page, name: string) => page.getByTestId('item-row').filter({ hasText: name });

const stamp = Date.now();
const person = (name: string, handle: string): Person => ({
  name,
  email: `${handle}-${stamp}@atelier.test`,
  password: `${handle}-password-1`,
});
const owner = person('Olivia Owner', 'olivia');
const editor = person('Eddie Editor', 'eddie');
const viewer = person('Vera Viewer', 'vera');
const newcomer = person('Nina Newcomer', 'nina');

/** A signed-in person in a browser of their own, on their Shared with me page (so invitations arrive live). */
async function openAs(browser: Browser, who: Person): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await registerAndSignIn(page, who);
  await page.goto('/platform/shared-with-me');
  await expect(page.getByRole('heading', { name: 'Nothing is shared with you yet' })).toBeVisible();
  return page;
}

test('an owner makes a team folder and invites two people; each accepts live from the notification centre; the editor drops a file the owner then sees; the viewer has no write actions', async ({
  page,
  browser,
}, info) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await ensureInstalled(page);
  const editorPage = await openAs(browser, editor);
  const viewerPage = await openAs(browser, viewer);
  await registerAndSignIn(page, owner);

  let teamPath = '';
  await test.step('the owner makes a team folder from the upload menu, inviting an editor and a viewer', async () => {
    await page.goto('/platform/files');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('menuitem', { name: 'New team folder' }).click();
    const dialog = page.getByRole('dialog', { name: 'New team folder' });
    await dialog.getByLabel('Name').fill('Launch kit');
    for (const [who, permission] of [
      [editor, 'Can edit'],
      [viewer, 'Can view'],
    ] as const) {
      await dialog.getByLabel('Invite by e-mail').fill(who.email);
      await dialog.getByLabel('Permission', { exact: true }).selectOption({ label: permission });
      await dialog.getByRole('button', { name: 'Add' }).click();
    }
    const list = dialog.getByRole('list', { name: 'People to invite' });
    await expect(list.getByRole('listitem')).toHaveCount(2);
    await expect(list.getByLabel(`Permission of ${editor.email}`)).toHaveValue('can_edit');
    await snap(page, info, '01-team-create');
    await dialog.getByRole('button', { name: 'Create team folder' }).click();

    await expect(page).toHaveURL(/\/platform\/team-folders\/[0-9a-f-]{36}$/);
    // Both invitees are told at once, while the folder is made: checked before the owner's next steps,
    // since each toast leaves by itself after a few seconds.
    for (const invitee of [editorPage, viewerPage])
      await expect(invitee.getByRole('status').filter({ hasText: 'Team folder invitation' })).toBeVisible();
    teamPath = new URL(page.url()).pathname;
    await expect(page.getByRole('heading', { name: 'Launch kit' })).toBeVisible();
    await page.getByRole('button', { name: 'Manage members' }).click();
    const members = page.getByRole('dialog', { name: 'Members of “Launch kit”' });
    await expect(members.getByTestId('team-invitation')).toHaveCount(2);
    await expect(members.getByTestId('team-invitation').filter({ hasText: editor.email })).toContainText(
      'Pending',
    );
    await snap(page, info, '02-team-members-invited');
    await members.getByRole('button', { name: 'Done' }).click();

    await page.goto('/platform/files');
    await expect(row(page, 'Launch kit').getByTestId('team-badge')).toBeVisible();
  });

  await test.step('each invitee is told live and accepts from the notification centre', async () => {
    for (const invitee of [editorPage, viewerPage]) {
      await expect(invitee.getByTestId('notification-badge')).toHaveText('1');
      await invitee.getByRole('button', { name: /^Notifications, 1 unread/ }).click();
      const invitation = invitee
        .getByTestId('notification')
        .filter({ hasText: 'Olivia Owner invites you to the team folder “Launch kit”.' });
      if (invitee === editorPage) await snap(invitee, info, '03-team-invitation-notification');
      await invitation.getByRole('button', { name: 'Accept' }).click();
      await expect(invitee.getByText('You accepted the invitation.')).toBeVisible();
      await expect(invitation.getByRole('button', { name: 'Accept' })).toHaveCount(0);
      await expect(invitation.getByTestId('invitation-outcome')).toHaveText('Accepted');
      await expect(invitation.getByRole('link', { name: 'Open folder' })).toBeVisible();
      await invitee.keyboard.press('Escape');
      // Shared with me, open behind the centre, lists the folder at once with its owner.
      await expect(row(invitee, 'Launch kit')).toContainText('Olivia Owner');
    }
    await expect(row(viewerPage, 'Launch kit')).toContainText('Can view');
    await snap(viewerPage, info, '04-shared-with-me');
  });

  await test.step('the owner sees both as members, with their permissions', async () => {
    await page.goto(teamPath);
    await page.getByRole('button', { name: 'Manage members' }).click();
    const members = page.getByRole('dialog', { name: 'Members of “Launch kit”' });
    await expect(members.getByLabel(`Permission of ${editor.name}`)).toHaveValue('can_edit');
    await expect(members.getByLabel(`Permission of ${viewer.name}`)).toHaveValue('can_view');
    await expect(members.getByTestId('team-invitation')).toHaveCount(0);
    await snap(page, info, '05-team-members');
    await members.getByRole('button', { name: 'Done' }).click();

    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/platform/team-folders');
    await expect(row(page, 'Launch kit')).toContainText('2 members');
    await snap(page, info, '05b-team-folders-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  const memberPath = teamPath.replace('/platform/team-folders/', '/platform/shared-with-me/');
  await test.step('the editor drops a file into the team folder, and the owner finds the same bytes', async () => {
    await row(editorPage, 'Launch kit').dblclick();
    await expect(editorPage).toHaveURL(memberPath);
    await expect(editorPage.getByText('Shared by Olivia Owner')).toBeVisible();
    await dropFromDesktop(editorPage, editorPage.getByTestId('file-drop-zone'), [
      join(desktop, 'moodboard.txt'),
    ]);
    await expect(row(editorPage, 'moodboard.txt')).toBeVisible();
    await snap(editorPage, info, '06-team-editor-upload');

    await page.goto(teamPath);
    await expect(row(page, 'moodboard.txt')).toBeVisible();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      (async () => {
        await row(page, 'moodboard.txt').getByRole('button', { name: 'Actions for moodboard.txt' }).click();
        await page.getByRole('menuitem', { name: 'Download' }).click();
      })(),
    ]);
    const saved = join(desktop, 'downloaded.txt');
    await download.saveAs(saved);
    expect(sha256(readFileSync(saved))).toBe(sha256(moodboard));
    await snap(page, info, '07-team-owner-sees-upload');
  });

  await test.step('the viewer browses and downloads, with no way to change anything', async () => {
    await viewerPage.goto(memberPath);
    await expect(row(viewerPage, 'moodboard.txt')).toBeVisible();
    for (const name of ['Upload', 'New folder']) {
      await expect(viewerPage.getByRole('button', { name, exact: true })).toHaveCount(0);
    }
    await row(viewerPage, 'moodboard.txt').getByRole('button', { name: 'Actions for moodboard.txt' }).click();
    await expect(viewerPage.getByRole('menu').getByRole('menuitem')).toHaveText([
      'Preview',
      'Download',
      'Versions',
    ]);
    await viewerPage.keyboard.press('Escape');
    expect(await row(viewerPage, 'moodboard.txt').getAttribute('draggable')).toBe('false');
    await snap(viewerPage, info, '08-team-viewer');
  });

  await test.step('after a reload the editor’s invitation still says accepted, and opens the folder', async () => {
    await editorPage.goto('/platform/files');
    await editorPage.reload();
    await editorPage.getByRole('button', { name: /^Notifications, 0 unread/ }).click();
    const invitation = editorPage
      .getByTestId('notification')
      .filter({ hasText: 'Olivia Owner invites you to the team folder “Launch kit”.' });
    await expect(invitation.getByTestId('invitation-outcome')).toHaveText('Accepted');
    await expect(invitation.getByRole('button')).toHaveCount(0);
    await snapEverywhere(editorPage, info, '10b-invitation-answered');
    await invitation.getByRole('link', { name: 'Open folder' }).click();
    await expect(editorPage).toHaveURL(memberPath);
    await expect(row(editorPage, 'moodboard.txt')).toBeVisible();
  });

  await test.step('the owner is told who joined, and opens the team folder from it', async () => {
    await page.goto('/platform/files');
    await page.getByRole('button', { name: /^Notifications, \d+ unread/ }).click();
    const joined = page
      .getByTestId('notification')
      .filter({ hasText: 'accepted your invitation to the team folder “Launch kit”.' });
    await expect(joined).toHaveText([/^Vera Viewer joined/, /^Eddie Editor joined/]);
    await expect(joined.first()).toContainText(`Vera Viewer (${viewer.email}) accepted`);
    // Looked at once the unread highlight has faded.
    await expect(joined.first()).not.toHaveAttribute('data-unread');
    await snapEverywhere(page, info, '10c-owner-told');
    await joined.last().getByRole('link', { name: 'Open folder' }).click();
    await expect(page).toHaveURL(teamPath);
    await expect(row(page, 'moodboard.txt')).toBeVisible();
  });

  await test.step('an invitation page answers only the invited address', async () => {
    await page.goto(teamPath);
    await page.getByRole('button', { name: 'Manage members' }).click();
    const members = page.getByRole('dialog', { name: 'Members of “Launch kit”' });
    await members.getByLabel('Invite by e-mail').fill(newcomer.email);
    await members.getByRole('button', { name: 'Invite', exact: true }).click();
    await expect(members.getByTestId('team-invitation').filter({ hasText: newcomer.email })).toContainText(
      'Pending',
    );
    await members.getByRole('button', { name: 'Done' }).click();
    const listing = await (
      await call(page, 'get', teamPath.replace('/platform/team-folders/', '/api/teams/folders/'))
    ).json();
    const invitation = listing.meta.teamFolder.invitations.find(
      (entry: { email: string }) => entry.email === newcomer.email,
    );
    const invitationPath = `/team-folder-invitation/${invitation.id}`;

    await page.goto(invitationPath);
    await expect(page.getByRole('heading', { name: 'Waiting for an answer' })).toBeVisible();
    await viewerPage.goto(invitationPath);
    await expect(
      viewerPage.getByRole('heading', { name: 'This invitation is for another address' }),
    ).toBeVisible();
    await snap(viewerPage, info, '11-invitation-other-address');

    // Someone new registers with the invited address: registering proves nothing about an address
    // here (no e-mail verification), so the invitation opens only from the link in its e-mail.
    const newcomerContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const newcomerPage = await newcomerContext.newPage();
    await newcomerPage.goto(invitationPath);
    await expect(newcomerPage).toHaveURL(/\/sign-in\?redirect=/);
    await registerAndSignIn(newcomerPage, newcomer);
    await newcomerPage.goto(invitationPath);
    await expect(
      newcomerPage.getByRole('heading', { name: 'This invitation is for another address' }),
    ).toBeVisible();
    await newcomerPage.goto(await mailedLink(newcomer.email, invitationPath));
    await expect(newcomerPage.getByRole('heading', { name: 'Join “Launch kit”' })).toBeVisible();
    await expect(newcomerPage.getByText('Can view', { exact: true })).toBeVisible();
    await snap(newcomerPage, info, '12-invitation-phone');
    await newcomerPage.getByRole('button', { name: 'Decline' }).click();
    await expect(newcomerPage.getByRole('heading', { name: 'Invitation declined' })).toBeVisible();
    // Read again in the dark: the page shows how the invitation ended.
    await newcomerPage.emulateMedia({ colorScheme: 'dark' });
    await newcomerPage.reload();
    await expect(newcomerPage.getByRole('heading', { name: 'Invitation declined' })).toBeVisible();
    await snap(newcomerPage, info, '13-invitation-declined-phone-dark');
    await newcomerContext.close();
  });

  await test.step('on a phone, in the dark', async () => {
    for (const [who, path, name] of [
      [page, teamPath, 'owner'],
      [viewerPage, memberPath, 'viewer'],
      [editorPage, '/platform/shared-with-me', 'list'],
    ] as const) {
      await who.setViewportSize({ width: 390, height: 844 });
      await who.emulateMedia({ colorScheme: 'dark' });
      await who.goto(path);
      await expect(row(who, name === 'list' ? 'Launch kit' : 'moodboard.txt')).toBeVisible();
      await snap(who, info, `09-team-${name}-phone-dark`);
    }
    await page.getByRole('button', { name: 'Manage members' }).click();
    await expect(page.getByRole('dialog', { name: 'Members of “Launch kit”' })).toBeVisible();
    await snap(page, info, '10-team-members-phone-dark');
    await page.getByRole('button', { name: 'Done' }).click();
    // The owner was told that the newcomer declined.
    await page.getByRole('button', { name: /^Notifications, \d+ unread/ }).click();
    const declined = page.getByTestId('notification').first();
    await expect(declined).toContainText('Nina Newcomer declined');
    await expect(declined).toContainText(
      `Nina Newcomer (${newcomer.email}) will not join the team folder “Launch kit”.`,
    );
    await expect(declined).not.toHaveAttribute('data-unread');
    await snap(page, info, '14-owner-told-declined-phone-dark');
  });
});
