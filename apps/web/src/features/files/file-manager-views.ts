import { FolderOpen, Handshake, History, Inbox, Link2, Star, Trash2, Users } from 'lucide-react';
import type { SectionNavItem } from '../../components/sidebar/section-nav';

/** The file manager's views, in the order its navigation lists them (column, phone tabs, drawer). */
export const FILE_MANAGER_VIEWS: readonly SectionNavItem[] = [
  { id: 'files', to: '/platform/files', labelKey: 'files.my_files', icon: FolderOpen },
  { id: 'latest', to: '/platform/recent-uploads', labelKey: 'files.recent_uploads', icon: History },
  { id: 'favourites', to: '/platform/favourites', labelKey: 'files.favourites', icon: Star },
  {
    id: 'shared-with-me',
    to: '/platform/shared-with-me',
    labelKey: 'file_manager.shared_with_me',
    icon: Handshake,
  },
  { id: 'team-folders', to: '/platform/team-folders', labelKey: 'file_manager.team_folders', icon: Users },
  { id: 'shared', to: '/platform/shared', labelKey: 'file_manager.shared_links', icon: Link2 },
  {
    id: 'upload-requests',
    to: '/platform/upload-requests',
    labelKey: 'file_manager.upload_requests',
    icon: Inbox,
  },
  { id: 'trash', to: '/platform/trash', labelKey: 'files.trash', icon: Trash2 },
];
