import type { Settings } from '../settings/settings.defaults';
import { publicLinkCapabilities } from './ocs-shares.presenter';
import { trashAndVersionsCapabilities } from '../webdav/dav-trash-versions.routes';
import { chunkedUploadCapabilities } from '../webdav/webdav.chunked-uploads.service';

/** What a contribution may read to say what this instance does. */
export interface CapabilityContext {
  settings: Settings;
  /** The instance's public address, without a trailing slash. */
  appUrl: string;
}

/** Capabilities by app name (`core`, `dav`, `files`, `files_sharing`…), as Nextcloud groups them. */
export type Capabilities = Record<string, Record<string, unknown>>;

/** One feature's part of the document; contributions naming the same app are merged key by key. */
export type CapabilityContribution = (context: CapabilityContext) => Capabilities;

/** How often, in seconds, a client asks the root's ETag for changes when nothing pushes them. */
const POLL_INTERVAL_S = 60;

const core: CapabilityContribution = () => ({
  // Where the client finds the files; the WebDAV tree of /remote.php/ serves it.
  core: { pollinterval: POLL_INTERVAL_S, 'webdav-root': 'remote.php/webdav' },
});

const theming: CapabilityContribution = ({ settings, appUrl }) => ({
  theming: { name: settings.app_title, url: appUrl, slogan: settings.app_description },
});

/**
 * Everything the OCS capabilities document advertises, one contribution per feature that works.
 * Clients switch behaviour on what is listed here (chunked uploads, bulk upload, trash, versions,
 * share menus), so a feature joins only once its routes answer: write a `CapabilityContribution`
 * beside the feature and append it to this list, nothing else.
 */
export const CAPABILITY_CONTRIBUTIONS: readonly CapabilityContribution[] = [
  core,
  theming,
  chunkedUploadCapabilities,
  trashAndVersionsCapabilities,
  publicLinkCapabilities,
];

/** The capabilities of every contribution, merged per app in the list's order. */
export function capabilitiesOf(
  context: CapabilityContext,
  contributions: readonly CapabilityContribution[] = CAPABILITY_CONTRIBUTIONS,
): Capabilities {
  const merged: Capabilities = {};
  for (const contribution of contributions)
    for (const [app, values] of Object.entries(contribution(context)))
      merged[app] = { ...merged[app], ...values };
  return merged;
}
