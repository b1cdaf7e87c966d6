// Prints scripts/user-guide.html to public/docs/atelier-user-guide.pdf with headless Chromium.
// Run after editing the guide: `npm run user-guide -w @atelier/web` (CHROMIUM_PATH overrides the browser).
/* global document -- used inside page.evaluate, which runs in the browser */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
// Fonts go in as data URLs: a page set from a string may not load file:// addresses.
const fontUrl = (pkg, file) => {
  const bytes = readFileSync(join(dirname(require.resolve(`${pkg}/package.json`)), 'files', file));
  return `data:font/woff2;base64,${bytes.toString('base64')}`;
};

const html = readFileSync(join(here, 'user-guide.html'), 'utf8')
  .replace('{{FRAUNCES}}', fontUrl('@fontsource-variable/fraunces', 'fraunces-latin-wght-normal.woff2'))
  .replace(
    '{{INSTRUMENT_SANS}}',
    fontUrl('@fontsource-variable/instrument-sans', 'instrument-sans-latin-wght-normal.woff2'),
  );

const executablePath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium'].find(
  (path) => path && existsSync(path),
);
const browser = await chromium.launch({
  executablePath,
  // The switches every headless Chromium of the project takes (packages/render's HEADLESS_SWITCHES,
  // which a plain .mjs cannot import on Node 20): none of the background traffic, updates or sync.
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
try {
  const page = await browser.newPage();
  await page.setContent(html, { waitUntil: 'load' });
  const fontsLoaded = await page.evaluate(async () => {
    await document.fonts.ready;
    return document.fonts.check('16px Fraunces') && document.fonts.check('16px "Instrument Sans"');
  });
  if (!fontsLoaded) throw new Error('the guide fonts did not load');
  const output = join(here, '../public/docs/atelier-user-guide.pdf');
  await page.pdf({ path: output, format: 'A4', printBackground: true, preferCSSPageSize: true });
  console.log(`wrote ${output}`);
} finally {
  await browser.close();
}
