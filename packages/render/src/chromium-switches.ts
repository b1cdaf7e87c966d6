/**
 * Feature switches for a Chromium that Playwright launches. Chromium keeps only the last
 * `--disable-features` (and the last `--enable-features`) of its command line, and Playwright puts
 * its own first: a launch that adds one must carry Playwright's too, or it switches them back on
 * (paint holding, the optimisation hints' downloads, network time queries; a studio job took about
 * 5 % more CPU so). test/chromium-switches.test.ts holds the lists to a running browser's command line.
 */

/**
 * What every headless Chromium the project launches takes, whatever draws its pixels: no sandbox (a
 * container's root), none of the background traffic, updates, sync or first-run screens.
 */
export const HEADLESS_SWITCHES = [
  '--headless',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** What Playwright 1.65 turns off and on itself (its chromiumSwitches). */
const PLAYWRIGHT_DISABLED = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];
const PLAYWRIGHT_ENABLED = ['CDPScreenshotNewSurface', 'SkipListAccountsWithoutGaiaCookies'];

/**
 * Chromium 156 opens each new window's omnibox popup as two WebUI pages, headless too: about 1.7
 * CPU-s for every browser context on two cores, for an address bar nobody sees.
 */
const OMNIBOX_POPUP = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/** The feature switches of a launch: Playwright's, less the omnibox popup, plus `enable`. */
export function featureSwitches(enable: string[] = []): string[] {
  return [
    `--disable-features=${[...PLAYWRIGHT_DISABLED, ...OMNIBOX_POPUP].join(',')}`,
    ...(enable.length > 0 ? [`--enable-features=${[...PLAYWRIGHT_ENABLED, ...enable].join(',')}`] : []),
  ];
}
