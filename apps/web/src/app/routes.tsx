import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import type { RouteHandle, SectionId } from '../components/sidebar/sidebar-entries';
import type * as AdminUsersPages from '../features/admin/users/admin-users-pages';
import type * as BillingPages from '../features/billing/billing-pages';
import type * as FilesPages from '../features/files/files-pages';
import type * as UserBillingPages from '../features/billing/user-billing-pages';
import type * as SettingsTabs from '../features/admin/settings/settings-tabs';
import type * as ProjectsPages from '../features/projects/projects-pages';
import { PageLoader } from '../components/page-loader';
import { loadChunk } from '../lib/chunk-loader';
import { RouteErrorPage } from '../features/public/route-error-page';
import { RequireAdmin, RequireAuth } from './guards';
import { RootLayout } from './root-layout';

/** Loads a page module on demand (within the loader's time-out) and hands one of its exports to the router. */
function page<M, K extends keyof M>(importer: () => Promise<M>, name: K) {
  return async () => ({ Component: (await loadChunk(importer))[name] as ComponentType });
}

/** A screen of the signed-in area: its address, title and sidebar section, and the page that fills it. */
function screen(
  path: string,
  titleKey: string,
  section: SectionId | undefined,
  lazy: RouteObject['lazy'],
): RouteObject {
  const handle: RouteHandle = { titleKey, section };
  return { path, handle, lazy };
}

const filesPage = (name: keyof typeof FilesPages) =>
  page(() => import('../features/files/files-pages'), name);
/** The file manager's own navigation around its views (My files … Trash). */
const fileManagerLayout = page(() => import('../features/files/file-manager-layout'), 'FileManagerLayout');
const settingsTab = (name: keyof typeof SettingsTabs) =>
  page(() => import('../features/admin/settings/settings-tabs'), name);
const adminUsersPage = <K extends keyof typeof AdminUsersPages>(name: K) =>
  page(() => import('../features/admin/users/admin-users-pages'), name);
const billingPage = (name: keyof typeof BillingPages) =>
  page(() => import('../features/billing/billing-pages'), name);
const userBillingPage = (name: keyof typeof UserBillingPages) =>
  page(() => import('../features/billing/user-billing-pages'), name);
const storagePage = page(() => import('../features/files/storage-page'), 'StoragePage');
const profilePage = page(() => import('../features/account/profile-page'), 'ProfilePage');
const syncClientsPage = page(() => import('../features/sync-clients/sync-clients-page'), 'SyncClientsPage');
const projectsPage = (name: keyof typeof ProjectsPages) =>
  page(() => import('../features/projects/projects-pages'), name);
const mySharedItemsPage = page(() => import('../features/sharing/my-shared-items-page'), 'MySharedItemsPage');
const teamsPage = (name: 'TeamFoldersPage' | 'SharedWithMePage') =>
  page(() => import('../features/teams/team-folders-page'), name);
const uploadRequestsPage = page(
  () => import('../features/upload-requests/upload-requests-page'),
  'UploadRequestsPage',
);

/** The admin area's own navigation around its sections. */
const adminLayout = page(() => import('../features/admin/admin-layout'), 'AdminLayout');
const languagePage = page(() => import('../features/admin/language/language-page'), 'LanguagePage');
const pagesListPage = page(() => import('../features/admin/pages/pages-list-page'), 'PagesListPage');
const pageEditorPage = page(() => import('../features/admin/pages/page-editor-page'), 'PageEditorPage');

const titled = (titleKey: string): RouteHandle => ({ titleKey });

const redirect = (path: string, to: string): RouteObject => ({ path, element: <Navigate to={to} replace /> });

const ADMIN_USER_TABS = ['details', 'storage', 'subscription', 'password', 'delete'];
const ADMIN_PLAN_TABS = ['subscribers', 'settings', 'delete'];
const ADMIN_SETTINGS_TABS = [
  ['appearance', 'AppearanceTab'],
  ['index', 'IndexTab'],
  ['environment', 'EnvironmentTab'],
  ['others', 'OthersTab'],
  ['sign-in', 'SignInTab'],
  ['adsense', 'AdsenseTab'],
  ['server', 'ServerTab'],
] as const;

/** A screen of the admin area: the sidebar marks Admin Settings (the dashboard's entry) on all of them. */
const adminScreen = (path: string, titleKey: string, lazy: RouteObject['lazy']) =>
  screen(path, titleKey, 'dashboard', lazy);

const adminRoutes: RouteObject[] = [
  redirect('admin', '/admin/dashboard'),
  adminScreen('admin/dashboard', 'pages.admin_dashboard', adminUsersPage('DashboardPage')),
  adminScreen('admin/audit', 'pages.admin_audit', adminUsersPage('AuditPage')),
  adminScreen('admin/invoices', 'pages.admin_invoices', billingPage('AdminInvoicesPage')),
  adminScreen('admin/subscriptions', 'pages.admin_subscriptions', billingPage('AdminSubscriptionsPage')),
  adminScreen('admin/pages', 'pages.admin_pages', pagesListPage),
  adminScreen('admin/pages/:slug', 'pages.admin_page_edit', pageEditorPage),
  adminScreen('admin/plans', 'pages.admin_plans', billingPage('PlansPage')),
  adminScreen('admin/users', 'pages.admin_users', adminUsersPage('UsersPage')),
  adminScreen('admin/user/create', 'pages.admin_user_create', adminUsersPage('UserCreatePage')),
  adminScreen('admin/plan/create/fixed', 'pages.admin_plan_create_fixed', billingPage('PlanCreatePage')),
  adminScreen('admin/plan/create/metered', 'pages.admin_plan_create_metered', billingPage('PlanCreatePage')),
  redirect('admin/user/:id', 'details'),
  ...ADMIN_USER_TABS.map((tab) =>
    adminScreen(`admin/user/:id/${tab}`, `pages.admin_user_${tab}`, adminUsersPage('AdminUserPage')),
  ),
  ...(['fixed', 'metered'] as const).flatMap((variant) => [
    redirect(`admin/plan/:id/${variant}`, 'subscribers'),
    ...ADMIN_PLAN_TABS.map((tab) =>
      adminScreen(`admin/plan/:id/${variant}/${tab}`, `pages.admin_plan_${tab}`, billingPage('PlanPage')),
    ),
  ]),
  redirect('admin/payments', '/admin/payments/billings'),
  adminScreen(
    'admin/payments/billings',
    'pages.admin_payments_billings',
    billingPage('PaymentsBillingsPage'),
  ),
  adminScreen(
    'admin/payments/payments',
    'pages.admin_payments_payments',
    billingPage('PaymentsProvidersPage'),
  ),
  {
    path: 'admin/settings',
    lazy: settingsTab('SettingsLayout'),
    children: [
      { index: true, element: <Navigate to="/admin/settings/appearance" replace /> },
      ...ADMIN_SETTINGS_TABS.map(([tab, name]) =>
        adminScreen(tab, `pages.admin_settings_${tab.replace('-', '_')}`, settingsTab(name)),
      ),
    ],
  },
  adminScreen('admin/language', 'pages.admin_language', languagePage),
];

const memberRoutes: RouteObject[] = [
  redirect('user', '/user/profile'),
  screen('user/profile', 'pages.profile', 'profile', profilePage),
  screen('user/settings/storage', 'pages.storage', 'storage', storagePage),
  screen('user/settings/sync-clients', 'pages.sync_clients', 'profile', syncClientsPage),
  screen('user/settings/billing', 'pages.billing', 'billing', userBillingPage('BillingPage')),
  screen('user/settings/studio', 'pages.studio_settings', 'studio', projectsPage('StudioSettingsPage')),
  screen(
    'user/settings/transaction',
    'pages.transactions',
    'transaction',
    userBillingPage('TransactionsPage'),
  ),
  redirect('platform', '/platform/files'),
  {
    lazy: fileManagerLayout,
    children: [
      screen('platform/files/:id?', 'pages.files', 'files', filesPage('FilesPage')),
      screen('platform/recent-uploads', 'pages.recent_uploads', 'files', filesPage('RecentUploadsPage')),
      screen('platform/favourites', 'pages.favourites', 'files', filesPage('FavouritesPage')),
      screen('platform/shared-with-me/:id?', 'pages.shared_with_me', 'files', teamsPage('SharedWithMePage')),
      screen('platform/team-folders/:id?', 'pages.team_folders', 'files', teamsPage('TeamFoldersPage')),
      screen('platform/shared', 'pages.my_shared_items', 'shared', mySharedItemsPage),
      screen('platform/upload-requests', 'pages.upload_requests', 'files', uploadRequestsPage),
      screen('platform/trash/:id?', 'pages.trash', 'files', filesPage('TrashPage')),
    ],
  },
  screen('platform/output/:id?', 'pages.output', 'files', projectsPage('PlatformOutputPage')),
  screen('projects', 'pages.projects', 'create', projectsPage('ProjectsPage')),
  screen('projects/files/:id?', 'pages.project_files', 'create', projectsPage('ProjectFilesPage')),
  screen('projects/create/:id?', 'pages.project_create', 'create', projectsPage('CreateProjectPage')),
  screen(
    'projects/files/customize/:id?',
    'pages.project_customize',
    'create',
    projectsPage('ProjectCustomizePage'),
  ),
  screen('projects/files/output/:id?', 'pages.project_output', 'create', projectsPage('ProjectOutputPage')),
  redirect('gallery', '/gallery/files'),
  screen('gallery/files/:id?', 'pages.gallery', 'gallery', projectsPage('GalleryPage')),
];

const outsiderRoutes: RouteObject[] = [
  screen(
    'team-folder-invitation/:id',
    'pages.team_invitation',
    undefined,
    page(() => import('../features/teams/team-invitation-page'), 'TeamInvitationPage'),
  ),
  // The page a sync client opens in the browser (Login Flow v2), at the address Nextcloud gives it.
  screen(
    'login/v2/flow/:token',
    'pages.login_flow',
    undefined,
    page(() => import('../features/sync-clients/login-flow-page'), 'LoginFlowPage'),
  ),
];

/** The page an upload request's link opens, in the share pages' frame; `/request` alone is NotFound. */
const uploadRequestRoute: RouteObject = {
  path: 'request/:token/upload/:id?',
  handle: titled('pages.upload_request'),
  lazy: page(() => import('../features/upload-requests/upload-request-page'), 'UploadRequestPage'),
};

/** The public pages of a share link, in their own frame; each page loads on demand. */
const shareRoutes: RouteObject = {
  path: 'share/:token',
  lazy: page(() => import('../features/sharing/share-layout'), 'ShareLayout'),
  children: [
    {
      index: true,
      handle: titled('pages.shared_folder'),
      lazy: page(() => import('../features/sharing/share-layout'), 'ShareEntryPage'),
    },
    {
      path: 'files/:id?',
      handle: titled('pages.shared_folder'),
      lazy: page(() => import('../features/sharing/share-browser-page'), 'ShareBrowserPage'),
    },
    {
      path: 'file',
      handle: titled('pages.shared_file'),
      lazy: page(() => import('../features/sharing/share-file-page'), 'ShareFilePage'),
    },
    {
      path: 'product',
      handle: titled('pages.product'),
      lazy: page(() => import('../features/sharing/product-route'), 'ProductRoute'),
    },
    {
      path: 'authenticate',
      handle: titled('pages.share_authenticate'),
      lazy: page(() => import('../features/sharing/share-authenticate-page'), 'ShareAuthenticatePage'),
    },
  ],
};

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    // Shown while the first page's module loads.
    hydrateFallbackElement: <PageLoader />,
    children: [
      {
        lazy: page(() => import('../features/public/public-layout'), 'PublicLayout'),
        children: [
          { index: true, lazy: page(() => import('../features/public/home-page'), 'HomePage') },
          {
            path: 'page/:slug',
            handle: { ownTitle: true } satisfies RouteHandle,
            lazy: page(() => import('../features/public/dynamic-page'), 'DynamicPage'),
          },
          {
            path: 'contact-us',
            handle: titled('public.nav_contact'),
            lazy: page(() => import('../features/public/contact-page'), 'ContactPage'),
          },
          {
            path: 'demo',
            handle: titled('public.nav_demo'),
            lazy: page(() => import('../features/public/demo-page'), 'DemoPage'),
          },
          {
            // The upload-request address without a link's code: what such a link is, not a not-found.
            path: 'request',
            handle: titled('upload_requests.about.title'),
            lazy: page(() => import('../features/upload-requests/request-about-page'), 'RequestAboutPage'),
          },
          {
            path: 'temporary-unavailable',
            handle: titled('maintenance.title'),
            lazy: page(
              () => import('../features/public/temporary-unavailable-page'),
              'TemporaryUnavailablePage',
            ),
          },
        ],
      },
      {
        lazy: page(() => import('../features/auth/auth-layout'), 'AuthLayout'),
        children: [
          {
            path: 'sign-in',
            handle: titled('auth.sign_in'),
            lazy: page(() => import('../features/auth/sign-in-page'), 'SignInPage'),
          },
          {
            path: 'inhouse-sign-up',
            handle: titled('auth.sign_up_title'),
            lazy: page(() => import('../features/auth/sign-up-page'), 'SignUpPage'),
          },
          {
            path: 'forgotten-password',
            handle: titled('auth.recover_title'),
            lazy: page(() => import('../features/auth/forgotten-password-page'), 'ForgottenPasswordPage'),
          },
          {
            path: 'create-new-password',
            handle: titled('auth.reset_title'),
            lazy: page(() => import('../features/auth/create-new-password-page'), 'CreateNewPasswordPage'),
          },
          {
            path: 'successfully-verified',
            handle: titled('confirm.verified_title'),
            lazy: page(() => import('../features/auth/confirmation-pages'), 'SuccessfullyVerifiedPage'),
          },
          {
            path: 'successfully-send',
            handle: titled('confirm.sent_title'),
            lazy: page(() => import('../features/auth/confirmation-pages'), 'SuccessfullySendPage'),
          },
          ...outsiderRoutes,
        ],
      },
      shareRoutes,
      uploadRequestRoute,
      {
        lazy: page(() => import('../features/setup/wizard-layout'), 'WizardLayout'),
        children: [
          redirect('install', '/setup-wizard/status-check'),
          {
            path: 'setup-wizard/status-check',
            handle: titled('setup.step.status-check'),
            lazy: page(() => import('../features/setup/status-check-page'), 'StatusCheckPage'),
          },
          {
            path: 'setup-wizard/purchase-code',
            handle: titled('setup.step.purchase-code'),
            lazy: page(() => import('../features/setup/purchase-code-page'), 'PurchaseCodePage'),
          },
          {
            path: 'setup-wizard/database',
            handle: titled('setup.step.database'),
            lazy: page(() => import('../features/setup/database-page'), 'DatabasePage'),
          },
          {
            path: 'setup-wizard/environment',
            handle: titled('setup.step.environment'),
            lazy: page(() => import('../features/setup/environment-page'), 'EnvironmentPage'),
          },
          {
            path: 'setup-wizard/app-setup',
            handle: titled('setup.step.app-setup'),
            lazy: page(() => import('../features/setup/app-setup-page'), 'AppSetupPage'),
          },
          {
            path: 'setup-wizard/admin-setup',
            handle: titled('setup.step.admin-setup'),
            lazy: page(() => import('../features/setup/admin-setup-page'), 'AdminSetupPage'),
          },
        ],
      },
      {
        element: <RequireAuth />,
        children: [
          {
            lazy: page(() => import('./app-layout'), 'AppLayout'),
            children: [
              { element: <RequireAdmin />, children: [{ lazy: adminLayout, children: adminRoutes }] },
              ...memberRoutes,
            ],
          },
        ],
      },
      {
        path: '*',
        handle: titled('not_found.title'),
        lazy: page(() => import('../features/public/not-found-page'), 'NotFoundPage'),
      },
    ],
  },
];
