/**
 * Where a notification's `route` action leads: the named routes of the description, with the id
 * param where the route takes one. An unknown name gives no button.
 */
const NAMED_ROUTES: Record<string, (id?: string) => string> = {
  Files: (id) => `/platform/files${id ? `/${id}` : ''}`,
  RecentUploads: () => '/platform/recent-uploads',
  MySharedItems: () => '/platform/shared',
  Trash: (id) => `/platform/trash${id ? `/${id}` : ''}`,
  TeamFolders: (id) => `/platform/team-folders${id ? `/${id}` : ''}`,
  SharedWithMe: (id) => `/platform/shared-with-me${id ? `/${id}` : ''}`,
  Projects: () => '/projects',
  ProjectDetails: (id) => `/projects/files${id ? `/${id}` : ''}`,
  ProjectDetailsCustomize: (id) => `/projects/files/customize${id ? `/${id}` : ''}`,
  ProjectDetailsOutput: (id) => `/projects/files/output${id ? `/${id}` : ''}`,
  Billing: () => '/user/settings/billing',
  AdminPayments: () => '/admin/payments/payments',
};

export function namedRoutePath(route: string, id?: string): string | null {
  const path = NAMED_ROUTES[route];
  return path ? path(id ? encodeURIComponent(id) : undefined) : null;
}
