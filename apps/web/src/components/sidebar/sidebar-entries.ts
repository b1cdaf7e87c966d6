import type { LucideIcon } from 'lucide-react';
import {
  CreditCard,
  FolderUp,
  Gem,
  HardDrive,
  Images,
  LayoutDashboard,
  PackageSearch,
  ReceiptText,
  Share2,
  SquarePlus,
  UserRound,
} from 'lucide-react';

/** A sidebar section; routes name theirs in `handle.section` and the first match lights its entry. */
export type SectionId =
  | 'storage'
  | 'profile'
  | 'studio'
  | 'create'
  | 'gallery'
  | 'files'
  | 'shared'
  | 'transaction'
  | 'billing'
  | 'dashboard';

export interface SidebarEntry {
  section: SectionId;
  to: string;
  labelKey: string;
  icon: LucideIcon;
}

const entry = (section: SectionId, to: string, labelKey: string, icon: LucideIcon): SidebarEntry => ({
  section,
  to,
  labelKey,
  icon,
});

/*
 * The description's entries. The file manager's views (recent uploads, favourites, team folders,
 * upload requests, trash…) are in its own navigation, and the admin area's sections in the admin's.
 */
const ADMIN_ENTRIES: SidebarEntry[] = [
  entry('storage', '/user/settings/storage', 'sidebar.account_management', HardDrive),
  entry('profile', '/user/profile', 'sidebar.profile', UserRound),
  entry('studio', '/user/settings/studio', 'sidebar.studio_settings', Gem),
  entry('files', '/platform/files', 'sidebar.file_upload', FolderUp),
  entry('shared', '/platform/shared', 'sidebar.product_manager', PackageSearch),
  entry('transaction', '/user/settings/transaction', 'sidebar.transaction', ReceiptText),
  entry('billing', '/user/settings/billing', 'sidebar.billings', CreditCard),
  entry('dashboard', '/admin/dashboard', 'sidebar.admin_settings', LayoutDashboard),
];

const USER_ENTRIES: SidebarEntry[] = [
  entry('storage', '/user/settings/storage', 'sidebar.storage', HardDrive),
  entry('profile', '/user/profile', 'sidebar.profile', UserRound),
  entry('studio', '/user/settings/studio', 'sidebar.studio_settings', Gem),
  entry('create', '/projects/create', 'sidebar.create', SquarePlus),
  entry('gallery', '/gallery/files', 'sidebar.gallery', Images),
  entry('files', '/platform/files', 'sidebar.files', FolderUp),
  entry('shared', '/platform/shared', 'sidebar.my_shared_items', Share2),
  entry('transaction', '/user/settings/transaction', 'sidebar.transaction', ReceiptText),
  entry('billing', '/user/settings/billing', 'sidebar.billing', CreditCard),
];

/** Profile, Create and Gallery always show for a normal user; the rest only while dateStatus holds. */
const ALWAYS_SHOWN: ReadonlySet<SectionId> = new Set(['profile', 'create', 'gallery']);

export function sidebarEntriesFor(user: { role: 'admin' | 'user'; dateStatus: boolean }): SidebarEntry[] {
  if (user.role === 'admin') return ADMIN_ENTRIES;
  return USER_ENTRIES.filter((item) => user.dateStatus || ALWAYS_SHOWN.has(item.section));
}

export interface RouteHandle {
  section?: SectionId;
  /** The page's name, for its heading and the document title. */
  titleKey?: string;
  /** The page sets the document title itself (its title comes from the server). */
  ownTitle?: boolean;
}

/** The active section is the one named by the first matched route that names one. */
export function activeSection(matches: { handle: unknown }[]): SectionId | undefined {
  for (const match of matches) {
    const section = (match.handle as RouteHandle | undefined)?.section;
    if (section) return section;
  }
  return undefined;
}
