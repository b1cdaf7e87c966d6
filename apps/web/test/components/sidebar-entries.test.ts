import { describe, expect, it } from 'vitest';
import { activeSection, sidebarEntriesFor } from '../../src/components/sidebar/sidebar-entries';

const labels = (entries: { labelKey: string }[]) =>
  entries.map((entry) => entry.labelKey.replace('sidebar.', ''));

describe('sidebar entries', () => {
  it("gives admins the description's entries, without Create or Gallery", () => {
    expect(labels(sidebarEntriesFor({ role: 'admin', dateStatus: false }))).toEqual([
      'account_management',
      'profile',
      'studio_settings',
      'file_upload',
      'product_manager',
      'transaction',
      'billings',
      'admin_settings',
    ]);
  });

  it('gives an older account every user entry', () => {
    expect(labels(sidebarEntriesFor({ role: 'user', dateStatus: true }))).toEqual([
      'storage',
      'profile',
      'studio_settings',
      'create',
      'gallery',
      'files',
      'my_shared_items',
      'transaction',
      'billing',
    ]);
  });

  it('shows only Profile, Create and Gallery while dateStatus is false', () => {
    expect(labels(sidebarEntriesFor({ role: 'user', dateStatus: false }))).toEqual([
      'profile',
      'create',
      'gallery',
    ]);
  });

  it('lights the section of the first matched route that names one', () => {
    expect(
      activeSection([
        { handle: undefined },
        { handle: { section: 'files' } },
        { handle: { section: 'shared' } },
      ]),
    ).toBe('files');
    expect(activeSection([{ handle: undefined }])).toBeUndefined();
  });
});
