import { escape } from './webdav.presenter';

/**
 * A property the server computes that is neither DAV's own nor one of the sync properties every item
 * has (Nextcloud's `nc:trashbin-…` and `nc:version-…`), carried as a resource's extra property so a
 * PROPFIND finds it by name as it finds any other: its value is text.
 */
export function computedProperty(
  namespace: string,
  name: string,
  text: string,
): { namespace: string; name: string; value: string } {
  return { namespace, name, value: escape(text) };
}
