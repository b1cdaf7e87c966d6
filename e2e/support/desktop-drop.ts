import type { Locator, Page } from '@playwright/test';

/**
 * Drags files and folders from "the desktop" onto an element through Chromium's own drag events
 * (CDP Input.dispatchDragEvent), so folders arrive as real directory entries, as they do for a user.
 */
export async function dropFromDesktop(page: Page, target: Locator, paths: string[]): Promise<void> {
  const box = await target.boundingBox();
  if (!box) throw new Error('drop target is not visible');
  const x = box.x + box.width / 2;
  const y = box.y + Math.min(box.height / 2, 200);
  const cdp = await page.context().newCDPSession(page);
  const data = { items: [], files: paths, dragOperationsMask: 1 };
  for (const type of ['dragEnter', 'dragOver', 'drop'] as const) {
    await cdp.send('Input.dispatchDragEvent', { type, x, y, data });
  }
  await cdp.detach();
}
