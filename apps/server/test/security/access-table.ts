import { createHash, randomBytes } from 'node:crypto';
import type { multipartBody } from '../files/files-harness';
import { boxStl } from '../projects/support/models';
import { syncClientRows } from './access-table-sync-clients';
import { chunkedUploadRows } from './access-table-chunked-uploads';
import { davPreviewRows, davTrashRows, davVersionsRows } from './access-table-nextcloud-collections';
import { DEFAULT_PASSWORD } from '../support/factories';
import type { ActorKind } from './actors';
import type { HttpMethod, RouteKey } from './route-inventory';
import {
  DAV_MOUNT_FOLDERS,
  TEAM_MEMBER_KINDS,
  type Seed,
  type SeededRequest,
  type SeededShare,
} from './seed';

/** A part of a multipart form, as the test harness's form builder takes it. */
export type FormPart = Parameters<typeof multipartBody>[0][number];

/** One call of a route, naming the owner's things: path parameters, query, JSON body or multipart form. */
export interface RequestSpec {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
  /** A multipart form, parts in this order. */
  form?: FormPart[];
  /** Headers of the call (WebDAV's Authorization, Depth, Destination…). */
  headers?: Record<string, string>;
  /** A raw body (WebDAV's XML and file bytes), instead of `body`. */
  payload?: string;
}

/** How a row's route is reached: its own verb, the method-override POST, or the HEAD twin of a GET. */
export type CallForm = 'verb' | 'override' | 'head';

/** What an actor holds of the owner's: a share link and an upload request (revoked or unknown ones for most). */
export interface Held {
  kind: ActorKind;
  share: SeededShare;
  request: SeededRequest;
}

export interface AccessRow {
  route: RouteKey;
  /**
   * The call every actor makes; the owner's ids go wherever the route takes one. `held` is the link
   * and the upload request the actor holds, for the calls through them.
   */
  request?: (seed: Seed, held: Held, form: CallForm) => RequestSpec;
  /** The status each kind of actor gets. */
  expect: Record<ActorKind, number>;
  /** Actors besides the owner whose answer may show the owner's data. */
  seesOwnerData?: ActorKind[];
  /** Actors whose answer may show any seeded user's data (the admin's account lists). */
  seesEveryone?: ActorKind[];
  /** Actors besides the owner whose allowed call may change the owner's data. */
  changesOwnerData?: ActorKind[];
}

const LINK_HOLDERS = [
  'shareVisitor',
  'shareExpired',
  'shareLocked',
  'shareUnlocked',
  'shareEditor',
  'requestActive',
  'requestFilled',
  'requestExpired',
] as const;
/** Who holds only a link (a share's or an upload request's) is anonymous to every route but those of links. */
const holdingALink = (status: number) =>
  Object.fromEntries(LINK_HOLDERS.map((kind) => [kind, status])) as Record<
    (typeof LINK_HOLDERS)[number],
    number
  >;

/** The members of the owner's team folders: to anything outside those folders, signed-in strangers. */
const members = (status: number) => ({ teamViewer: status, teamEditor: status });
/** The members of the owner's team folders, who may read them. */
const TEAM_READERS: ActorKind[] = ['teamViewer', 'teamEditor'];

/** Open to anyone, signed in or not. */
const everyone = (status: number): Record<ActorKind, number> => ({
  anonymous: status,
  stranger: status,
  admin: status,
  owner: status,
  ...holdingALink(status),
  ...members(status),
});
/** Any signed-in user, each about their own account. */
const signedIn = (status: number): Record<ActorKind, number> => ({
  anonymous: 401,
  stranger: status,
  admin: status,
  owner: status,
  ...holdingALink(401),
  ...members(status),
});
/** The owner's things: anyone else is told they do not exist, admins included. */
const ownerOnly = (status: number): Record<ActorKind, number> => ({
  anonymous: 401,
  stranger: 404,
  admin: 404,
  owner: status,
  ...holdingALink(401),
  ...members(404),
});
const UNKNOWN_PLAN = '00000000-0000-4000-8000-000000000000';
const adminOnly = (status: number): Record<ActorKind, number> => ({
  anonymous: 401,
  stranger: 403,
  admin: status,
  owner: 403,
  ...holdingALink(401),
  ...members(403),
});

/**
 * A call through a link, decided by the link each actor holds: the signed-in and anonymous kinds
 * hold a revoked one, which answers 410 like the expired link (saying whom to ask), the protected one
 * 401 until its password was given; the protected link is an editor's, so once open it answers as
 * the editor's does.
 */
const throughLink = (answers: {
  visitor: number;
  editor: number;
  locked?: number;
  unlocked?: number;
}): Record<ActorKind, number> => ({
  anonymous: 410,
  stranger: 410,
  admin: 410,
  owner: 410,
  shareVisitor: answers.visitor,
  shareExpired: 410,
  shareLocked: answers.locked ?? 401,
  shareUnlocked: answers.unlocked ?? answers.editor,
  shareEditor: answers.editor,
  requestActive: 410,
  requestFilled: 410,
  requestExpired: 410,
  ...members(410),
});

/**
 * A call with an upload request's token, decided by the request each actor holds: everyone but the
 * request kinds holds an unknown one (404); a filled or expired request answers 410 to all but its detail.
 */
const throughRequest = (active: number, closed = 410): Record<ActorKind, number> => ({
  ...everyone(404),
  requestActive: active,
  requestFilled: closed,
  requestExpired: closed,
});
/** The kinds whose request takes files. */
const REQUEST_SENDERS: ActorKind[] = ['requestActive'];
/** The kinds that may read through their link. */
const LINK_READERS: ActorKind[] = ['shareVisitor', 'shareUnlocked', 'shareEditor'];
/** The kinds whose link lets them change the shared folder. */
const LINK_EDITORS: ActorKind[] = ['shareUnlocked', 'shareEditor'];

const oneChunk = (name: string, data: Buffer, fields: Record<string, string>): FormPart[] => [
  ...Object.entries({ name, extension: name.split('.').pop()!, is_last_chunk: '1', ...fields }).map(
    ([field, value]) => ({ field, value }),
  ),
  { file: 'chunk', filename: `${randomBytes(8).toString('hex')}-${name}.part`, data },
];

/** The one block the delta upload rows send and commit. */
const BLOCK = (() => {
  const text = 'planted through the delta upload';
  return { text, sha256: createHash('sha256').update(text).digest('hex') };
})();

const PASSWORD = 'a new password 1';

/**
 * Who may call what: every route the app serves, with the answer each kind of actor gets. The
 * suite fails on a served route missing here and on a row whose route is gone, so a new route
 * joins by adding its row. Rows run in this order for each actor (the owner last, since the
 * owner's calls change the owner's data), so a row that destroys something comes after the rows
 * that need it.
 */
export const accessTable: AccessRow[] = [
  // WebDAV first: the teams rows below have the members leave the team folder.
  ...webdavRows(),
  // ---- instance ----------------------------------------------------------------------------
  { route: 'GET /api/ping', expect: everyone(200) },
  { route: 'GET /api/config', expect: everyone(200) },
  ...syncClientRows(),
  ...chunkedUploadRows(),
  {
    route: 'GET /translations/:locale',
    request: () => ({ params: { locale: 'en' } }),
    expect: everyone(200),
  },
  {
    route: 'GET /api/pages/:slug',
    request: () => ({ params: { slug: 'terms-of-service' } }),
    expect: everyone(200),
  },
  {
    route: 'POST /api/contact',
    request: (s) => ({ body: { email: s.owner.user.email, message: 'Hello' } }),
    expect: everyone(204),
  },

  // ---- the API's own documentation (outside the OpenAPI document) --------------------------------
  { route: 'GET /api/docs', expect: everyone(200) },
  { route: 'GET /api/docs/', expect: everyone(200) },
  { route: 'GET /api/docs/static/index.html', expect: everyone(302) },
  { route: 'GET /api/docs/static/swagger-initializer.js', expect: everyone(200) },
  {
    route: 'GET /api/docs/static/*',
    request: () => ({ params: { '*': 'swagger-ui.css' } }),
    expect: everyone(200),
  },
  { route: 'GET /api/docs/json', expect: everyone(200) },
  { route: 'GET /api/docs/yaml', expect: everyone(200) },
  { route: 'GET /api/docs/openapi.json', expect: everyone(200) },

  // ---- setup wizard: gone once installed -------------------------------------------------------
  { route: 'GET /api/setup/status-check', expect: everyone(410) },
  {
    route: 'POST /api/setup/purchase-code',
    request: () => ({ body: { purchaseCode: '00000000-0000-0000-0000-000000000000' } }),
    expect: everyone(410),
  },
  {
    route: 'POST /api/setup/database',
    request: () => ({ body: { connection: 'sqlite' } }),
    expect: everyone(410),
  },
  {
    route: 'POST /api/setup/environment-setup',
    request: () => ({
      body: { storage: { driver: 'local' }, mail: { driver: 'log' }, broadcasting: { driver: 'null' } },
    }),
    expect: everyone(410),
  },
  {
    route: 'POST /api/setup/app-setup',
    request: () => ({ body: { title: 'Taken over', contactEmail: 'attacker@example.test' } }),
    expect: everyone(410),
  },
  {
    route: 'POST /api/setup/admin-setup',
    request: () => ({
      body: {
        name: 'Mallory',
        email: 'mallory@example.test',
        password: PASSWORD,
        password_confirmation: PASSWORD,
      },
    }),
    expect: everyone(410),
  },

  // ---- two-factor authentication: each user's own; the challenge needs a sign-in that waits ----
  // Before sign-in's rows, whose wrong passwords for the owner's e-mail would leave the owner's
  // right ones here throttled whenever both fell in the same minute.
  { route: 'GET /api/user/two-factor-authentication', expect: signedIn(200) },
  {
    // The right password hands the actor a pending secret of its own.
    route: 'POST /api/user/two-factor-authentication',
    request: () => ({ body: { password: DEFAULT_PASSWORD } }),
    expect: signedIn(200),
  },
  {
    route: 'POST /api/user/confirmed-two-factor-authentication',
    request: () => ({ body: { code: '000000' } }),
    expect: signedIn(422),
  },
  {
    // Not confirmed, so there are no codes to replace.
    route: 'POST /api/user/two-factor-recovery-codes',
    request: () => ({ body: { password: DEFAULT_PASSWORD } }),
    expect: signedIn(422),
  },
  {
    route: 'DELETE /api/user/two-factor-authentication',
    request: () => ({ body: { password: DEFAULT_PASSWORD } }),
    expect: signedIn(204),
  },
  {
    route: 'POST /api/two-factor-challenge',
    request: () => ({ body: { code: '000000' } }),
    expect: everyone(422),
  },

  // ---- auth: each call names the owner's account ------------------------------------------------
  {
    route: 'POST /api/register',
    request: (s) => ({
      body: {
        name: 'Mallory',
        email: s.owner.user.email,
        password: PASSWORD,
        password_confirmation: PASSWORD,
      },
    }),
    expect: everyone(422),
  },
  {
    route: 'POST /api/login',
    // A fresh address of no account each call (answered like an account's): the matrix makes more
    // calls than one account's sign-in window (10 wrong passwords in 15 minutes) lets through.
    request: () => ({
      body: { email: `nobody-${randomBytes(6).toString('hex')}@example.test`, password: 'not the password' },
    }),
    expect: everyone(422),
  },
  { route: 'POST /logout', expect: everyone(204) },
  {
    route: 'POST /api/password/recover',
    request: (s) => ({ body: { email: s.owner.user.email } }),
    expect: everyone(200),
    // Anyone may ask for a reset link for any address: a token row is stored, the link goes to the owner only.
    changesOwnerData: ['anonymous', 'stranger', 'admin', ...LINK_HOLDERS, 'teamViewer', 'teamEditor'],
  },
  {
    route: 'POST /api/password/reset',
    request: (s) => ({
      body: {
        token: 'forged-token',
        email: s.owner.user.email,
        password: PASSWORD,
        password_confirmation: PASSWORD,
      },
    }),
    expect: everyone(422),
  },
  {
    route: 'GET /api/email/verify/:token',
    request: () => ({ params: { token: 'forged-token' } }),
    expect: everyone(302),
  },

  // ---- the signed-in user's own account ------------------------------------------------------
  { route: 'GET /api/user', expect: signedIn(200) },
  {
    route: 'PATCH /api/user/settings',
    request: () => ({ body: { name: 'theme_mode', value: 'dark' } }),
    expect: signedIn(204),
  },
  { route: 'GET /api/user/storage', expect: signedIn(200) },
  {
    // A right password would end the sessions the later cells of the same actor are made with.
    route: 'POST /api/user/password',
    request: () => ({
      body: {
        current_password: 'not the password',
        password: 'a new password',
        password_confirmation: 'a new password',
      },
    }),
    expect: signedIn(422),
  },
  // Avatars are public by their key, like the share pages that show them; the owner's cells come
  // in row order, so the owner reads the seeded avatar before replacing and removing it.
  {
    route: 'GET /api/avatars/:key/:size',
    request: (s) => ({ params: { key: s.owner.avatar.key, size: 'sm' } }),
    expect: everyone(200),
  },
  {
    route: 'POST /api/user/avatar',
    request: (s) => ({ form: [{ file: 'avatar', filename: 'me.png', data: s.owner.avatar.image }] }),
    expect: signedIn(200),
  },
  { route: 'DELETE /api/user/avatar/current', expect: signedIn(200) },
  // Social sign-in: the seed configures no provider, so a name is unknown to everyone; the API
  // tests of test/social-sign-in cover the flows against a real provider.
  {
    route: 'GET /api/socialite/:provider/redirect',
    request: () => ({ params: { provider: 'github' } }),
    expect: everyone(404),
  },
  {
    route: 'GET /socialite/:provider/callback',
    request: () => ({ params: { provider: 'github' }, query: { code: 'forged', state: 'forged' } }),
    expect: everyone(404),
  },
  { route: 'GET /api/user/social-accounts', expect: signedIn(200) },
  {
    route: 'DELETE /api/user/social-accounts/:provider',
    request: () => ({ params: { provider: 'github' } }),
    expect: signedIn(404),
  },

  // ---- app passwords: each user's own; another's is not found -------------------------------
  { route: 'GET /api/user/app-passwords', expect: signedIn(200) },
  {
    route: 'POST /api/user/app-passwords',
    request: () => ({ body: { name: 'A script' } }),
    expect: signedIn(201),
  },
  {
    route: 'DELETE /api/user/app-passwords/:id',
    request: (s, _held, form) => ({ params: { id: s.owner.appPasswords[form === 'override' ? 1 : 0] } }),
    expect: ownerOnly(204),
  },

  // ---- devices: each user's own sessions; another's is not found -----------------------------
  { route: 'GET /api/user/sessions', expect: signedIn(200) },
  {
    route: 'DELETE /api/user/sessions/:id',
    request: (s, _held, form) => ({ params: { id: s.owner.devices[form === 'override' ? 1 : 0] } }),
    expect: ownerOnly(204),
  },

  // ---- notifications -------------------------------------------------------------------------
  { route: 'GET /api/notifications', expect: signedIn(200) },
  { route: 'POST /api/notifications/read', expect: signedIn(204) },
  { route: 'DELETE /api/notifications', expect: signedIn(204) },
  { route: 'POST /api/admin/test-websockets', expect: adminOnly(204) },
  // ---- the language editor and the content pages: admins only ---------------------------------
  { route: 'GET /api/admin/languages', expect: adminOnly(200) },
  {
    route: 'POST /api/admin/languages',
    request: () => ({ body: { locale: 'fr', name: 'Français' } }),
    expect: adminOnly(201),
  },
  {
    route: 'GET /api/admin/languages/:locale/strings',
    request: () => ({ params: { locale: 'fr' }, query: { search: 'sign in' } }),
    expect: adminOnly(200),
  },
  {
    route: 'PATCH /api/admin/languages/:locale/strings',
    request: () => ({
      params: { locale: 'fr' },
      body: { key: 'alerts.error_confirm', value: 'Quelle horreur !' },
    }),
    expect: adminOnly(200),
  },
  {
    route: 'DELETE /api/admin/languages/:locale/strings/:key',
    request: () => ({ params: { locale: 'fr', key: 'alerts.error_confirm' } }),
    expect: adminOnly(204),
  },
  {
    route: 'POST /api/admin/languages/:locale/default',
    request: () => ({ params: { locale: 'en' } }),
    expect: adminOnly(204),
  },
  // English is never removed, so the admin's answer (in both forms of the call) is the refusal.
  {
    route: 'DELETE /api/admin/languages/:locale',
    request: () => ({ params: { locale: 'en' } }),
    expect: adminOnly(422),
  },
  { route: 'GET /api/admin/pages', expect: adminOnly(200) },
  {
    route: 'POST /api/admin/pages',
    request: () => ({ body: { slug: 'imprint', title: 'Imprint', content: 'Atelier', visibility: true } }),
    expect: adminOnly(201),
  },
  {
    route: 'POST /api/admin/pages/preview',
    request: () => ({ body: { content: '# Preview' } }),
    expect: adminOnly(200),
  },
  {
    route: 'PATCH /api/admin/pages/:slug',
    request: () => ({ params: { slug: 'terms-of-service' }, body: { title: 'Terms of Service' } }),
    expect: adminOnly(200),
  },
  // ---- admin settings ------------------------------------------------------------------------
  {
    route: 'GET /api/admin/settings',
    request: () => ({ query: { group: 'environment' } }),
    expect: adminOnly(200),
  },
  {
    route: 'POST /api/admin/settings',
    request: () => ({
      body: { settings: { app_description: 'Set by the matrix', app_accent_color: '#2563eb' } },
    }),
    expect: adminOnly(204),
  },
  {
    route: 'POST /api/admin/settings/image',
    request: (s) => ({
      form: [
        { field: 'name', value: 'app_logo' },
        { file: 'image', filename: 'logo.png', data: s.owner.avatar.image },
      ],
    }),
    expect: adminOnly(200),
  },
  { route: 'GET /api/admin/server-status', expect: adminOnly(200) },
  {
    // Only an image the instance uses now is served (settings.test.ts); any other key is unknown to all.
    route: 'GET /api/app-images/:key/:variant',
    request: (s) => ({ params: { key: s.owner.avatar.key, variant: 'main' } }),
    expect: everyone(404),
  },

  // ---- administration: accounts and their audit log -----------------------------------------
  // The admin's answers show accounts, every seeded user's among them; nobody else gets past 403.
  { route: 'GET /api/admin/dashboard', expect: adminOnly(200), seesEveryone: ['admin'] },
  { route: 'GET /api/admin/audit', expect: adminOnly(200), seesEveryone: ['admin'] },
  { route: 'GET /api/admin/users', expect: adminOnly(200), seesEveryone: ['admin'] },
  {
    route: 'POST /api/admin/users',
    request: () => ({
      body: { name: 'Made by the admin', email: 'matrix-made@example.test', password: 'a long password' },
    }),
    expect: adminOnly(201),
  },
  {
    route: 'GET /api/admin/users/:id',
    request: (s) => ({ params: { id: s.owner.user.id } }),
    expect: adminOnly(200),
    seesOwnerData: ['admin'],
  },
  {
    // The owner's own name again: the change reaches the row without changing it.
    route: 'PATCH /api/admin/users/:id',
    request: (s) => ({ params: { id: s.owner.user.id }, body: { name: s.owner.user.name } }),
    expect: adminOnly(200),
    seesOwnerData: ['admin'],
  },
  {
    route: 'PATCH /api/admin/users/:id/capacity',
    request: (s) => ({ params: { id: s.owner.user.id }, body: { max_storage_amount: null } }),
    expect: adminOnly(200),
    seesOwnerData: ['admin'],
    changesOwnerData: ['admin'],
  },
  {
    // A confirmation that does not match: the admin reaches the rules, and the owner stays signed in.
    route: 'POST /api/admin/users/:id/password',
    request: (s) => ({
      params: { id: s.owner.user.id },
      body: { password: 'a long password', password_confirmation: 'another one' },
    }),
    expect: adminOnly(422),
  },
  {
    // A mistyped name: the admin reaches the rules, and the owner's account stays for the other rows.
    route: 'DELETE /api/admin/users/:id',
    request: (s) => ({ params: { id: s.owner.user.id }, body: { name: 'not the name' } }),
    expect: adminOnly(422),
  },

  // ---- billing: plans --------------------------------------------------------------------------
  { route: 'GET /api/subscriptions/plans', expect: signedIn(200) },
  { route: 'GET /api/admin/plans', expect: adminOnly(200) },
  {
    route: 'POST /api/admin/plans',
    request: () => ({
      body: {
        type: 'fixed',
        name: 'Matrix plan',
        currency: 'USD',
        amount: '9.99',
        interval: 'month',
        features: { max_storage_amount: 100, max_team_members: 5 },
      },
    }),
    expect: adminOnly(201),
  },
  // No plan is seeded: the guard answers before the lookup, and an admin learns the plan is unknown.
  {
    route: 'GET /api/admin/plans/:id',
    request: () => ({ params: { id: UNKNOWN_PLAN } }),
    expect: adminOnly(404),
  },
  {
    route: 'PATCH /api/admin/plans/:id',
    request: () => ({ params: { id: UNKNOWN_PLAN }, body: { name: 'Renamed' } }),
    expect: adminOnly(404),
  },
  {
    route: 'DELETE /api/admin/plans/:id',
    request: () => ({ params: { id: UNKNOWN_PLAN } }),
    expect: adminOnly(404),
  },
  {
    route: 'GET /api/admin/plans/:id/subscribers',
    request: () => ({ params: { id: UNKNOWN_PLAN } }),
    expect: adminOnly(404),
  },

  // ---- billing: subscriptions, transactions, webhooks ------------------------------------------
  // The seeded instance has no billing: each signed-in actor reaches the rules about their own account.
  { route: 'GET /api/subscriptions/detail', expect: signedIn(200) },
  {
    route: 'POST /api/subscriptions/checkout',
    request: () => ({ body: { plan_id: UNKNOWN_PLAN, driver: 'stripe' } }),
    expect: signedIn(422),
  },
  {
    route: 'POST /api/subscriptions/balance/checkout',
    request: () => ({ body: { amount: '10.00', driver: 'stripe' } }),
    expect: signedIn(422),
  },
  { route: 'POST /api/subscriptions/cancel', expect: signedIn(422) },
  {
    route: 'POST /api/subscriptions/swap',
    request: () => ({ body: { plan_id: UNKNOWN_PLAN } }),
    expect: signedIn(422),
  },
  { route: 'GET /api/user/transactions', expect: signedIn(200) },
  {
    // Not a metered instance: each signed-in actor reaches the rule, and no alert is stored.
    route: 'PATCH /api/subscriptions/alert',
    request: () => ({ body: { amount: '5.00' } }),
    expect: signedIn(422),
  },
  // No transaction is seeded: each signed-in actor reaches the invoice lookup, which finds none of theirs.
  {
    route: 'GET /api/user/transactions/:id/invoice',
    request: () => ({ params: { id: UNKNOWN_PLAN } }),
    expect: signedIn(404),
  },
  {
    route: 'GET /api/admin/transactions/:id/invoice',
    request: () => ({ params: { id: UNKNOWN_PLAN } }),
    expect: adminOnly(404),
  },
  { route: 'GET /api/admin/subscriptions', expect: adminOnly(200), seesEveryone: ['admin'] },
  { route: 'GET /api/admin/transactions', expect: adminOnly(200), seesEveryone: ['admin'] },
  { route: 'GET /api/admin/payment-events', expect: adminOnly(200), seesEveryone: ['admin'] },
  {
    // Not a metered instance: the admin reaches the rule, and no balance moves.
    route: 'POST /api/admin/users/:id/credit',
    request: (s) => ({ params: { id: s.owner.user.id }, body: { amount: '5.00', note: 'Matrix' } }),
    expect: adminOnly(422),
  },
  {
    // Unsigned: refused before anything is stored, whoever sends it.
    route: 'POST /api/subscriptions/:driver/webhooks',
    request: () => ({ params: { driver: 'stripe' }, body: { id: 'evt_matrix', type: 'invoice.paid' } }),
    expect: everyone(400),
  },

  // ---- files ---------------------------------------------------------------------------------
  {
    route: 'POST /api/upload/chunks',
    request: (s) => ({
      form: oneChunk('planted.txt', Buffer.from('planted'), { parent_id: s.owner.folder }),
    }),
    expect: ownerOnly(201),
  },
  {
    // Queued only: the matrix runs no worker, so nothing is fetched.
    route: 'POST /api/upload/remote',
    request: (s) => ({ body: { urls: ['https://example.com/planted.txt'], parent_id: s.owner.folder } }),
    expect: ownerOnly(202),
  },
  // The delta upload, into the owner's team folder so members are tried too: the editor's block
  // (sent in the PUT row before) is the owner's block, filed as the owner's file by the commit.
  {
    route: 'POST /api/upload/blocks/missing',
    request: (s) => ({ body: { hashes: [BLOCK.sha256], parent_id: s.owner.team.folder } }),
    expect: { ...ownerOnly(200), teamViewer: 403, teamEditor: 200 },
  },
  {
    route: 'PUT /api/upload/blocks/:sha256',
    request: (s) => ({
      params: { sha256: BLOCK.sha256 },
      query: { parent_id: s.owner.team.folder },
      headers: { 'content-type': 'application/octet-stream' },
      payload: BLOCK.text,
    }),
    expect: { ...ownerOnly(204), teamViewer: 403, teamEditor: 204 },
    changesOwnerData: ['teamEditor'],
  },
  {
    route: 'POST /api/upload/blocks/commit',
    request: (s) => ({
      body: {
        name: 'planted-blocks.txt',
        size: BLOCK.text.length,
        blocks: [BLOCK.sha256],
        parent_id: s.owner.team.folder,
      },
    }),
    expect: { ...ownerOnly(201), teamViewer: 403, teamEditor: 201 },
    // The editor is answered the file they filed in the owner's team folder.
    seesOwnerData: ['teamEditor'],
    changesOwnerData: ['teamEditor'],
  },
  {
    route: 'GET /api/browse/folders/:id',
    request: (s) => ({ params: { id: s.owner.folder } }),
    expect: ownerOnly(200),
  },
  { route: 'GET /api/browse/latest', expect: signedIn(200) },
  {
    route: 'GET /api/browse/trash/:id',
    request: (s) => ({ params: { id: s.owner.trashedFolder } }),
    expect: ownerOnly(200),
  },
  { route: 'GET /api/browse/navigation', expect: signedIn(200) },
  { route: 'GET /api/browse/favourites', expect: signedIn(200) },
  {
    // Every actor searches for the owner's file name; only the owner finds it.
    route: 'GET /api/search',
    request: (s) => ({ query: { query: s.owner.secrets[0]! } }),
    expect: signedIn(200),
  },
  {
    route: 'POST /api/create-folder',
    request: (s) => ({ body: { name: 'Planted', parent_id: s.owner.folder } }),
    expect: ownerOnly(201),
  },
  {
    route: 'PATCH /api/rename/:id',
    request: (s) => ({ params: { id: s.owner.file }, body: { name: 'renamed.txt', type: 'file' } }),
    expect: ownerOnly(200),
  },
  {
    route: 'POST /api/move',
    request: (s) => ({
      body: { to_id: s.owner.destination, items: [{ id: s.owner.movable, type: 'file' }] },
    }),
    expect: ownerOnly(204),
  },
  {
    route: 'POST /api/remove',
    request: (s) => ({ body: { items: [{ id: s.owner.disposable, type: 'file', force_delete: false }] } }),
    expect: ownerOnly(204),
  },
  // Nextcloud's trash bin over WebDAV, on what the row above trashed, before the trash is emptied.
  ...davTrashRows(),
  {
    route: 'POST /api/trash/restore',
    request: (s) => ({ body: { to_home: true, items: [{ id: s.owner.trashedFile, type: 'file' }] } }),
    expect: ownerOnly(204),
  },
  // Each caller empties their own trash only; the snapshot proves the owner's stays.
  { route: 'DELETE /api/trash/dump', expect: signedIn(204) },
  {
    route: 'POST /api/favourites',
    request: (s) => ({ body: { ids: [s.owner.file] } }),
    expect: ownerOnly(204),
  },
  {
    route: 'DELETE /api/favourites/:id',
    request: (s) => ({ params: { id: s.owner.folder } }),
    expect: ownerOnly(204),
  },
  {
    route: 'GET /api/zip',
    request: (s) => ({ query: { items: `${s.owner.file}|file` } }),
    expect: ownerOnly(200),
  },
  { route: 'GET /file/:id', request: (s) => ({ params: { id: s.owner.file } }), expect: ownerOnly(200) },
  // A file's versions follow the file: its readers list and read them, those who may change it
  // restore and delete them (a file in the owner's team folder, so members are tried too).
  {
    route: 'GET /api/files/:id/versions',
    request: (s) => ({ params: { id: s.owner.team.versioned.file } }),
    expect: { ...ownerOnly(200), ...members(200) },
    seesOwnerData: TEAM_READERS,
  },
  {
    route: 'GET /api/files/:id/versions/:versionId',
    request: (s) => ({
      params: { id: s.owner.team.versioned.file, versionId: s.owner.team.versioned.read },
    }),
    expect: { ...ownerOnly(200), ...members(200) },
    seesOwnerData: TEAM_READERS,
  },
  {
    route: 'POST /api/files/:id/versions/:versionId/restore',
    request: (s, held) => ({
      params: {
        id: s.owner.team.versioned.file,
        versionId: s.owner.team.versioned.restore[held.kind === 'teamEditor' ? 'teamEditor' : 'owner'],
      },
    }),
    expect: { ...ownerOnly(200), teamViewer: 403, teamEditor: 200 },
    seesOwnerData: TEAM_READERS,
    changesOwnerData: ['teamEditor'],
  },
  {
    route: 'DELETE /api/files/:id/versions/:versionId',
    request: (s, held, form) => ({
      params: {
        id: s.owner.team.versioned.file,
        versionId:
          s.owner.team.versioned.remove[held.kind === 'teamEditor' ? 'teamEditor' : 'owner'][
            form === 'override' ? 1 : 0
          ],
      },
    }),
    expect: { ...ownerOnly(204), teamViewer: 403, teamEditor: 204 },
    changesOwnerData: ['teamEditor'],
  },
  // The same versions over Nextcloud's WebDAV address.
  ...davVersionsRows(),
  {
    route: 'GET /thumbnail/:size/:id',
    request: (s) => ({ params: { size: 'sm', id: s.owner.image } }),
    expect: ownerOnly(200),
  },
  ...davPreviewRows(),

  // ---- projects ------------------------------------------------------------------------------
  {
    // An admin may create a project in a user's name; a user may not.
    route: 'POST /api/create-project',
    request: (s) => ({ body: { project_name: 'Planted', user_id: s.owner.user.id } }),
    expect: { anonymous: 401, stranger: 403, admin: 201, owner: 201, ...holdingALink(401), ...members(403) },
    seesOwnerData: ['admin'],
    changesOwnerData: ['admin'],
  },
  {
    route: 'POST /api/projects/from-file',
    request: (s) => ({ body: { file_id: s.owner.projectInput } }),
    expect: ownerOnly(201),
  },
  {
    route: 'POST /api/projects/:id/inputs',
    request: (s) => ({ params: { id: s.owner.project }, body: { items: [s.owner.projectInput] } }),
    expect: ownerOnly(201),
  },
  {
    route: 'GET /api/browse/projects/:id',
    request: (s) => ({ params: { id: s.owner.project } }),
    expect: ownerOnly(200),
  },
  {
    route: 'GET /api/browse/projects/files/:id',
    request: (s) => ({ params: { id: s.owner.project }, query: { type: 'input' } }),
    expect: ownerOnly(200),
  },
  {
    route: 'GET /api/browse/projects/gallery/:id',
    request: (s) => ({ params: { id: s.owner.project } }),
    expect: ownerOnly(200),
  },
  {
    route: 'GET /api/browse/projects/gallery/:id/data',
    request: (s) => ({ params: { id: s.owner.project }, query: { date: s.owner.galleryDate } }),
    expect: ownerOnly(200),
  },
  {
    route: 'POST /api/update-project-settings',
    request: (s) => ({ body: { project_id: s.owner.project, updateKey: 'stills', updateValue: 2 } }),
    expect: ownerOnly(200),
  },
  {
    route: 'POST /api/projects/:id/cover',
    request: (s) => ({ params: { id: s.owner.project }, body: { item_id: null } }),
    expect: ownerOnly(200),
  },
  {
    // The seed's outputs are of its model's current bytes: nothing to re-render, and no one else's project.
    route: 'POST /api/projects/:id/rerender',
    request: (s) => ({ params: { id: s.owner.project }, body: {} }),
    expect: ownerOnly(422),
  },
  {
    route: 'GET /api/projects/:id/scene',
    request: (s) => ({ params: { id: s.owner.project } }),
    expect: ownerOnly(200),
  },
  {
    route: 'GET /api/projects/inputs/:id/mesh',
    request: (s) => ({ params: { id: s.owner.projectInput } }),
    expect: ownerOnly(200),
  },
  { route: 'GET /api/projects/categories', expect: signedIn(200) },
  { route: 'GET /api/projects/finishes', expect: signedIn(200) },
  { route: 'GET /api/projects/render-queue', expect: signedIn(200) },
  { route: 'GET /api/studio-settings/scene', expect: signedIn(200) },
  { route: 'GET /api/studio-settings', expect: signedIn(200) },
  {
    route: 'POST /api/studio-settings',
    request: () => ({ body: { updateKey: 'stills', updateValue: 3 } }),
    expect: signedIn(200),
  },
  {
    route: 'POST /api/projects/upload/chunks',
    request: (s) => ({ form: oneChunk('planted.stl', boxStl(), { project_id: s.owner.project }) }),
    expect: ownerOnly(201),
  },
  {
    route: 'POST /api/generateAssets',
    request: (s) => ({ body: { project_id: s.owner.project, category_id: 'mechanical' } }),
    expect: ownerOnly(201),
  },
  {
    route: 'POST /api/file-generateAssets',
    request: (s) => ({ body: { folder_id: s.owner.projectFolder, category_id: 'mechanical' } }),
    expect: ownerOnly(201),
  },
  {
    route: 'GET /api/outputZip',
    request: (s) => ({ query: { project_id: s.owner.project } }),
    expect: ownerOnly(200),
  },
  {
    route: 'GET /api/galleryZip',
    request: (s) => ({ query: { project_id: s.owner.project, date: s.owner.galleryDate } }),
    expect: ownerOnly(200),
  },
  {
    route: 'GET /api/projects/:id/shop-pack',
    request: (s) => ({ params: { id: s.owner.project } }),
    expect: ownerOnly(200),
  },
  {
    route: 'POST /api/projects/:id/shop-pack',
    request: (s) => ({ params: { id: s.owner.project }, body: { presets: ['pinterest'] } }),
    expect: ownerOnly(200),
  },
  {
    route: 'GET /api/projects/:id/shop-pack/zip',
    request: (s) => ({ params: { id: s.owner.project }, query: { presets: 'pinterest' } }),
    expect: ownerOnly(200),
  },
  // ---- share links: the owner's side -------------------------------------------------------
  {
    route: 'POST /api/share',
    request: (s) => ({ body: { id: s.owner.destination, type: 'folder', permission: 'visitor' } }),
    expect: ownerOnly(201),
  },
  {
    route: 'GET /api/share/:token',
    request: (s) => ({ params: { token: s.owner.shares.visitor.token } }),
    expect: ownerOnly(200),
  },
  {
    route: 'PATCH /api/share/:token',
    request: (s) => ({ params: { token: s.owner.shares.visitor.token }, body: { expiration: 168 } }),
    expect: ownerOnly(200),
  },
  {
    route: 'POST /api/share/:token/email',
    request: (s) => ({
      params: { token: s.owner.shares.visitor.token },
      body: { emails: ['friend@example.test'] },
    }),
    expect: ownerOnly(204),
  },
  {
    // A link revoked once is gone, so each form of the call takes one of its own.
    route: 'DELETE /api/share/revoke',
    request: (s, _share, form) => ({ body: { tokens: [s.owner.revocable[form === 'override' ? 1 : 0]] } }),
    expect: ownerOnly(204),
  },
  { route: 'GET /api/browse/share', expect: signedIn(200) },

  // ---- share links: the calls through a link (each actor with the link it holds) ------------------
  {
    // Counted as a view; shows the owner's name to whoever holds a live link, password or not.
    route: 'GET /api/sharing/:token',
    request: (_s, { share }) => ({ params: { token: share.token } }),
    expect: throughLink({ visitor: 200, editor: 200, locked: 200 }),
    seesOwnerData: [...LINK_READERS, 'shareLocked'],
    changesOwnerData: [...LINK_READERS, 'shareLocked'],
  },
  {
    // A wrong password: a link without one has nothing to open.
    route: 'POST /api/sharing/authenticate/:token',
    request: (_s, { share }) => ({ params: { token: share.token }, body: { password: 'not the password' } }),
    expect: throughLink({ visitor: 204, editor: 204, locked: 401, unlocked: 401 }),
  },
  {
    // A folder's link has no single file to show.
    route: 'GET /api/sharing/file/:token',
    request: (_s, { share }) => ({ params: { token: share.token } }),
    expect: throughLink({ visitor: 404, editor: 404 }),
  },
  {
    // The seeded links share a plain folder, which is no project's: no product page to show.
    route: 'GET /api/sharing/product/:token',
    request: (_s, { share }) => ({ params: { token: share.token } }),
    expect: throughLink({ visitor: 404, editor: 404 }),
  },
  {
    // A link that is protected, ended or unknown has no oEmbed; a live open one names its item.
    route: 'GET /api/oembed',
    request: (_s, { share }) => ({ query: { url: `http://atelier.test/share/${share.token}` } }),
    expect: {
      ...throughLink({ visitor: 200, editor: 200, locked: 404, unlocked: 404 }),
      ...Object.fromEntries(
        Object.entries(throughLink({ visitor: 200, editor: 200 })).flatMap(([kind, status]) =>
          status === 410 ? [[kind, 404]] : [],
        ),
      ),
    },
    seesOwnerData: ['shareVisitor', 'shareEditor'],
  },
  {
    route: 'GET /api/sharing/folders/:id/:token',
    request: (_s, { share }) => ({ params: { id: share.inner, token: share.token } }),
    expect: throughLink({ visitor: 200, editor: 200 }),
    seesOwnerData: LINK_READERS,
  },
  {
    route: 'GET /api/sharing/navigation/:token',
    request: (_s, { share }) => ({ params: { token: share.token } }),
    expect: throughLink({ visitor: 200, editor: 200 }),
    seesOwnerData: LINK_READERS,
  },
  {
    route: 'GET /api/sharing/search/:token',
    request: (_s, { share }) => ({ params: { token: share.token }, query: { query: 'file' } }),
    expect: throughLink({ visitor: 200, editor: 200 }),
    seesOwnerData: LINK_READERS,
  },
  {
    // Counted as a download.
    route: 'GET /api/sharing/zip/:token',
    request: (_s, { share }) => ({ params: { token: share.token } }),
    expect: throughLink({ visitor: 200, editor: 200 }),
    seesOwnerData: LINK_READERS,
    changesOwnerData: LINK_READERS,
  },
  {
    // The seeded links share folders outside any project, which have no shop pack.
    route: 'GET /api/sharing/shop-pack/:token',
    request: (_s, { share }) => ({ params: { token: share.token }, query: { presets: 'pinterest' } }),
    expect: throughLink({ visitor: 404, editor: 404 }),
  },
  {
    route: 'GET /file/:id/shared/:token',
    request: (_s, { share }) => ({ params: { id: share.file, token: share.token } }),
    expect: throughLink({ visitor: 200, editor: 200 }),
    seesOwnerData: LINK_READERS,
    changesOwnerData: LINK_READERS,
  },
  {
    route: 'GET /thumbnail/:size/:id/shared/:token',
    request: (_s, { share }) => ({ params: { size: 'sm', id: share.image, token: share.token } }),
    expect: throughLink({ visitor: 200, editor: 200 }),
    seesOwnerData: LINK_READERS,
  },
  // A file's versions inside the share: every holder of a live link reads them, an editor's link
  // restores and deletes them.
  {
    route: 'GET /api/sharing/versions/:id/:token',
    request: (_s, { share }) => ({ params: { id: share.versioned.file, token: share.token } }),
    expect: throughLink({ visitor: 200, editor: 200 }),
    seesOwnerData: LINK_READERS,
  },
  {
    route: 'GET /api/sharing/version/:id/:versionId/:token',
    request: (_s, { share }) => ({
      params: { id: share.versioned.file, versionId: share.versioned.read, token: share.token },
    }),
    expect: throughLink({ visitor: 200, editor: 200 }),
    seesOwnerData: LINK_READERS,
  },
  {
    route: 'POST /api/sharing/version/:id/:versionId/restore/:token',
    request: (_s, { share }) => ({
      params: { id: share.versioned.file, versionId: share.versioned.restore, token: share.token },
    }),
    expect: throughLink({ visitor: 403, editor: 200 }),
    seesOwnerData: LINK_EDITORS,
    changesOwnerData: LINK_EDITORS,
  },
  {
    route: 'DELETE /api/sharing/version/:id/:versionId/:token',
    request: (_s, { share }, form) => ({
      params: {
        id: share.versioned.file,
        versionId: share.versioned.remove[form === 'override' ? 1 : 0],
        token: share.token,
      },
    }),
    expect: throughLink({ visitor: 403, editor: 204 }),
    changesOwnerData: LINK_EDITORS,
  },
  {
    route: 'POST /api/sharing/create-folder/:token',
    request: (_s, { share }) => ({
      params: { token: share.token },
      body: { name: 'Planted', parent_id: share.inner },
    }),
    expect: throughLink({ visitor: 403, editor: 201 }),
    seesOwnerData: LINK_EDITORS,
    changesOwnerData: LINK_EDITORS,
  },
  {
    route: 'PATCH /api/sharing/rename/:id/:token',
    request: (_s, { share }) => ({
      params: { id: share.file, token: share.token },
      body: { name: 'renamed.txt', type: 'file' },
    }),
    expect: throughLink({ visitor: 403, editor: 200 }),
    seesOwnerData: LINK_EDITORS,
    changesOwnerData: LINK_EDITORS,
  },
  {
    route: 'POST /api/sharing/move/:token',
    request: (_s, { share }) => ({
      params: { token: share.token },
      body: { to_id: share.inner, items: [{ id: share.movable, type: 'file' }] },
    }),
    expect: throughLink({ visitor: 403, editor: 204 }),
    changesOwnerData: LINK_EDITORS,
  },
  {
    route: 'POST /api/sharing/remove/:token',
    request: (_s, { share }) => ({
      params: { token: share.token },
      body: { items: [{ id: share.disposable, type: 'file', force_delete: false }] },
    }),
    expect: throughLink({ visitor: 403, editor: 204 }),
    changesOwnerData: LINK_EDITORS,
  },
  {
    route: 'POST /api/sharing/upload/chunks/:token',
    request: (_s, { share }) => ({
      params: { token: share.token },
      form: oneChunk('planted.txt', Buffer.from('planted'), { parent_id: share.inner }),
    }),
    expect: throughLink({ visitor: 403, editor: 201 }),
    seesOwnerData: LINK_EDITORS,
    changesOwnerData: LINK_EDITORS,
  },

  // ---- upload requests: the owner's side ----------------------------------------------------
  {
    // Each signed-in caller makes a request of their own, into a new folder of their own.
    route: 'POST /api/file-request',
    request: () => ({ body: { folder_id: null, name: 'Requested' } }),
    expect: signedIn(201),
  },
  { route: 'GET /api/file-request', expect: signedIn(200) },

  // ---- upload requests: the calls with a request's token (each actor with the request it holds) ----
  {
    // The request's page: shown whatever its status, so it can say why nothing more can be sent.
    route: 'GET /api/file-request/:token',
    request: (_s, { request }) => ({ params: { token: request.token } }),
    expect: throughRequest(200, 200),
    seesOwnerData: ['requestActive', 'requestFilled', 'requestExpired'],
  },
  {
    route: 'GET /api/file-request/:token/browse/:id',
    request: (_s, { request }) => ({ params: { token: request.token, id: 'all' } }),
    expect: throughRequest(200),
    seesOwnerData: REQUEST_SENDERS,
  },
  {
    route: 'GET /api/file-request/:token/navigation',
    request: (_s, { request }) => ({ params: { token: request.token } }),
    expect: throughRequest(200),
    seesOwnerData: REQUEST_SENDERS,
  },
  {
    route: 'POST /api/file-request/:token/upload/chunks',
    request: (_s, { request }) => ({
      params: { token: request.token },
      form: oneChunk('sent.txt', Buffer.from('sent'), { parent_id: request.inner }),
    }),
    expect: throughRequest(201),
    seesOwnerData: REQUEST_SENDERS,
    changesOwnerData: REQUEST_SENDERS,
  },
  {
    route: 'POST /api/file-request/:token/create-folder',
    request: (_s, { request }) => ({
      params: { token: request.token },
      body: { name: 'Sent folder', parent_id: request.inner },
    }),
    expect: throughRequest(201),
    seesOwnerData: REQUEST_SENDERS,
    changesOwnerData: REQUEST_SENDERS,
  },
  {
    route: 'PATCH /api/file-request/:token/rename/:id',
    request: (_s, { request }) => ({
      params: { token: request.token, id: request.file },
      body: { name: 'renamed.txt', type: 'file' },
    }),
    expect: throughRequest(200),
    seesOwnerData: REQUEST_SENDERS,
    changesOwnerData: REQUEST_SENDERS,
  },
  {
    route: 'POST /api/file-request/:token/move',
    request: (_s, { request }) => ({
      params: { token: request.token },
      body: { to_id: request.inner, items: [{ id: request.movable, type: 'file' }] },
    }),
    expect: throughRequest(204),
    changesOwnerData: REQUEST_SENDERS,
  },
  {
    route: 'POST /api/file-request/:token/remove',
    request: (_s, { request }) => ({
      params: { token: request.token },
      body: { items: [{ id: request.disposable, type: 'file', force_delete: false }] },
    }),
    expect: throughRequest(204),
    changesOwnerData: REQUEST_SENDERS,
  },
  {
    // "I'm done": a request of its own for each form, so the one the other rows use stays open.
    route: 'DELETE /api/file-request/:token',
    request: (_s, { request }, form) => ({
      params: { token: form === 'override' ? request.closable[1] : request.closable[0] },
    }),
    expect: throughRequest(204),
    changesOwnerData: REQUEST_SENDERS,
  },

  // ---- team folders --------------------------------------------------------------------------
  {
    // Each signed-in caller makes a team folder of their own.
    route: 'POST /api/teams/folders',
    request: () => ({ body: { name: 'A team', invitations: [] } }),
    expect: signedIn(201),
  },
  {
    route: 'POST /api/teams/folders/:id/convert',
    request: (s) => ({ params: { id: s.owner.team.convertible }, body: { invitations: [] } }),
    expect: ownerOnly(201),
  },
  {
    // The owner's view: members are told it is not theirs (their view is /shared-with-me).
    route: 'GET /api/teams/folders/:id',
    request: (s) => ({ params: { id: s.owner.team.folder } }),
    expect: { ...ownerOnly(200), ...members(403) },
  },
  {
    // The owner's team folder as its members see it; its owner and everyone else are no members.
    route: 'GET /api/teams/shared-with-me/:id',
    request: (s) => ({ params: { id: s.owner.team.folder } }),
    expect: { ...ownerOnly(404), owner: 404, ...members(200) },
    seesOwnerData: TEAM_READERS,
  },
  {
    route: 'GET /api/teams/folders/:id/tree',
    request: (s) => ({ params: { id: s.owner.team.folder } }),
    expect: { ...ownerOnly(200), ...members(200) },
    seesOwnerData: TEAM_READERS,
  },
  {
    // Members may not manage the team; they are told so rather than told it does not exist.
    route: 'PATCH /api/teams/folders/:id',
    request: (s) => ({ params: { id: s.owner.team.folder }, body: { remove_members: [] } }),
    expect: { ...ownerOnly(200), ...members(403) },
  },
  {
    // Members leave (a team of its own for each form); the owner does not leave a team of their own.
    route: 'DELETE /api/teams/folders/:id/leave',
    request: (s, _held, form) => ({
      params: { id: form === 'override' ? s.owner.team.spare : s.owner.team.folder },
    }),
    expect: { ...ownerOnly(403), stranger: 404, admin: 404, ...members(204) },
    changesOwnerData: TEAM_READERS,
  },
  {
    route: 'DELETE /api/teams/folders/:id',
    request: (s, _held, form) => ({ params: { id: s.owner.team.dissolvable[form === 'override' ? 1 : 0] } }),
    expect: ownerOnly(204),
  },
  {
    // Shown to the invitee and to whoever invited; anyone else signed in is refused.
    route: 'GET /api/teams/invitations/:id',
    request: (s) => ({ params: { id: s.owner.team.invitation } }),
    expect: { ...ownerOnly(200), stranger: 403, admin: 403, ...members(403) },
  },
  {
    // Only the invited address may answer: not even the inviter.
    route: 'PUT /api/teams/invitations/:id',
    request: (s) => ({ params: { id: s.owner.team.invitation } }),
    expect: { ...ownerOnly(403), stranger: 403, admin: 403, ...members(403) },
  },
  {
    route: 'DELETE /api/teams/invitations/:id',
    request: (s) => ({ params: { id: s.owner.team.invitation } }),
    expect: { ...ownerOnly(403), stranger: 403, admin: 403, ...members(403) },
  },
];

// ---- WebDAV ------------------------------------------------------------------------------------

/**
 * /dav/ signs in with Basic and an app password, never a session. Signed-in kinds call with their
 * own app password, so the stranger and the admin reach their own trees (where the owner's folder
 * is not) and the members the team folder under /dav/shared/. The link holders try the wrong
 * credentials: another person's app password with the owner's e-mail, the account password, a
 * revoked app password and a wrong one; each names a person chosen by the row, so no e-mail and
 * address pair reaches sign-in's throttle. Everyone else sends none.
 */
export function davCredentials(s: Seed, kind: ActorKind, row: number): string | undefined {
  const people = [
    ...(['owner', 'stranger', 'admin'] as const).map((name) => ({
      email: s[name].user.email,
      dav: s[name].dav,
    })),
    ...TEAM_MEMBER_KINDS.map((member) => ({
      email: s.owner.team.members[member].email,
      dav: s.owner.team.dav[member],
    })),
  ];
  const chosen = people[row % people.length]!;
  const basic = (email: string, password: string) =>
    `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;
  switch (kind) {
    case 'owner':
    case 'stranger':
    case 'admin':
      return basic(s[kind].user.email, s[kind].dav.password);
    case 'teamViewer':
    case 'teamEditor': {
      const member = kind === 'teamViewer' ? 'viewer' : 'editor';
      return basic(s.owner.team.members[member].email, s.owner.team.dav[member].password);
    }
    case 'shareVisitor':
      return basic(chosen.email, DEFAULT_PASSWORD);
    case 'shareExpired':
      return basic(chosen.email, chosen.dav.revokedPassword);
    case 'shareLocked':
      return basic(chosen.email, 'aaaaaa-bbbbbb-cccccc-dddddd');
    case 'shareUnlocked':
      return basic(chosen.email, people[(row + 1) % people.length]!.dav.password);
    default:
      return undefined;
  }
}

const SIGNED_IN_DAV_KINDS: ActorKind[] = ['owner', 'stranger', 'admin', 'teamViewer', 'teamEditor'];

/** Signed-in kinds answer as given (stranger and admin alike); everyone else is 401. */
function davAnswers(answers: {
  owner: number;
  stranger: number;
  viewer: number;
  editor: number;
}): Record<ActorKind, number> {
  return {
    ...everyone(401),
    owner: answers.owner,
    stranger: answers.stranger,
    admin: answers.stranger,
    teamViewer: answers.viewer,
    teamEditor: answers.editor,
  };
}

/**
 * Where a WebDAV row calls: Atelier's /dav/ (team folders under shared/), and Nextcloud's addresses
 * (team folders among My files). Under /remote.php/dav/files/{user}/ everyone signed in names the
 * owner but the members, who name themselves by id: the stranger and the admin, another user in the
 * path, are answered 404 whatever the method.
 */
interface DavMountCase {
  /** `/dav/*`, `/remote.php/webdav/*` or `/remote.php/dav/files/:user/*` */
  wildcard: string;
  /** The mount's root route, answered for the tree itself; none for /dav/ (its root is no tree). */
  root?: string;
  /** The URL path a mount's path starts with, and the route's `:user`, as the actor calls. */
  at(s: Seed, kind: ActorKind): { prefix: string; user?: string };
  /** The path below the mount to the owner's WebDAV folder, or to the team folder for members. */
  folder(s: Seed, kind: ActorKind): string;
  wrongUser: boolean;
}

function davMounts(): DavMountCase[] {
  return [
    {
      wildcard: '/dav/*',
      at: () => ({ prefix: '/dav' }),
      folder: (s, kind) =>
        TEAM_READERS.includes(kind) ? `shared/${s.owner.dav.team}` : `files/${s.owner.dav.folder}`,
      wrongUser: false,
    },
    {
      wildcard: '/remote.php/webdav/*',
      root: '/remote.php/webdav',
      at: () => ({ prefix: '/remote.php/webdav' }),
      folder: (s, kind) =>
        `${TEAM_READERS.includes(kind) ? s.owner.dav.team : s.owner.dav.folder}/${DAV_MOUNT_FOLDERS[0]}`,
      wrongUser: false,
    },
    {
      wildcard: '/remote.php/dav/files/:user/*',
      root: '/remote.php/dav/files/:user',
      at: (s, kind) => {
        const user =
          kind === 'teamViewer' || kind === 'teamEditor'
            ? s.owner.team.members[kind === 'teamViewer' ? 'viewer' : 'editor'].id
            : s.owner.user.email;
        return { prefix: `/remote.php/dav/files/${encodeURIComponent(user)}`, user };
      },
      folder: (s, kind) =>
        `${TEAM_READERS.includes(kind) ? s.owner.dav.team : s.owner.dav.folder}/${DAV_MOUNT_FOLDERS[1]}`,
      wrongUser: true,
    },
  ];
}

type DavRowCall = (
  at: string,
  prefix: string,
) => { path: string; headers?: Record<string, string>; payload?: string };

function webdavRows(): AccessRow[] {
  const rows: AccessRow[] = [];
  // Wrong credentials count with sign-in's throttle (5 a minute per e-mail and address): /dav/'s rows
  // send them on every method, the other addresses' on their PROPFIND of a folder only, each row
  // naming a person of its own, and nothing otherwise (401 all the same).
  let credentialRows = 0;
  const slots = (specs: DavRowSpec[], which: (spec: DavRowSpec) => boolean) =>
    specs.map((spec) => (which(spec) ? credentialRows++ : null));
  for (const mount of davMounts()) {
    const items = davItemRows();
    const every = mount.root === undefined;
    rows.push(
      ...davRowsOf(
        mount,
        mount.wildcard,
        items,
        slots(items, (spec) => every || spec.method === 'PROPFIND'),
      ),
    );
    if (mount.root) {
      const roots = davRootRows();
      rows.push(
        ...davRowsOf(
          mount,
          mount.root,
          roots,
          slots(roots, () => false),
        ),
      );
    }
  }
  return rows;
}

interface DavRowSpec {
  method: HttpMethod;
  call: DavRowCall;
  expect: Record<ActorKind, number>;
  reads?: boolean;
}

/** The calls on the owner's WebDAV folder (the team folder for members) and what each kind gets. */
function davItemRows(): DavRowSpec[] {
  return [
    {
      method: 'OPTIONS',
      call: (at) => ({ path: `${at}/` }),
      expect: everyone(200),
    },
    {
      method: 'GET',
      call: (at) => ({ path: `${at}/readable.txt` }),
      expect: davAnswers({ owner: 200, stranger: 404, viewer: 200, editor: 200 }),
      reads: true,
    },
    {
      method: 'PROPFIND',
      call: (at) => ({ path: `${at}/`, headers: { depth: '1' } }),
      expect: davAnswers({ owner: 207, stranger: 404, viewer: 207, editor: 207 }),
      reads: true,
    },
    {
      method: 'PUT',
      call: (at) => ({ path: `${at}/new.txt`, payload: 'new' }),
      expect: davAnswers({ owner: 201, stranger: 409, viewer: 403, editor: 201 }),
    },
    {
      method: 'DELETE',
      call: (at) => ({ path: `${at}/removable.txt` }),
      expect: davAnswers({ owner: 204, stranger: 404, viewer: 403, editor: 204 }),
    },
    {
      method: 'MKCOL',
      call: (at) => ({ path: `${at}/made` }),
      expect: davAnswers({ owner: 201, stranger: 409, viewer: 403, editor: 201 }),
    },
    {
      method: 'COPY',
      call: (at, prefix) => ({
        path: `${at}/readable.txt`,
        headers: { destination: `http://localhost:80${prefix}/${at}/copied.txt` },
      }),
      expect: davAnswers({ owner: 201, stranger: 404, viewer: 403, editor: 201 }),
    },
    {
      method: 'MOVE',
      call: (at, prefix) => ({
        path: `${at}/movable.txt`,
        headers: { destination: `http://localhost:80${prefix}/${at}/moved.txt` },
      }),
      expect: davAnswers({ owner: 201, stranger: 404, viewer: 403, editor: 201 }),
    },
    {
      method: 'PROPPATCH',
      call: (at) => ({
        path: `${at}/readable.txt`,
        payload:
          '<D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:example"><D:set><D:prop><Z:colour>teal</Z:colour></D:prop></D:set></D:propertyupdate>',
      }),
      expect: davAnswers({ owner: 207, stranger: 404, viewer: 403, editor: 207 }),
    },
    {
      method: 'LOCK',
      call: (at) => ({
        path: `${at}/lockable.txt`,
        headers: { timeout: 'Second-60' },
        payload:
          '<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:shared/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>',
      }),
      expect: davAnswers({ owner: 200, stranger: 409, viewer: 403, editor: 200 }),
    },
    {
      // No lock holds this token anywhere, whoever asks.
      method: 'UNLOCK',
      call: (at) => ({ path: `${at}/readable.txt`, headers: { 'lock-token': '<opaquelocktoken:none>' } }),
      expect: davAnswers({ owner: 409, stranger: 409, viewer: 409, editor: 409 }),
    },
  ];
}

/**
 * The calls on a Nextcloud mount's root, each person's own My files: read, but never written as an
 * item (it is none), copied into itself, or locked whole (a LOCK without a body refreshes no lock).
 */
function davRootRows(): DavRowSpec[] {
  const same = (status: number) =>
    davAnswers({ owner: status, stranger: status, viewer: status, editor: status });
  return [
    { method: 'OPTIONS', call: () => ({ path: '' }), expect: everyone(200) },
    { method: 'GET', call: () => ({ path: '' }), expect: same(405), reads: true },
    {
      method: 'PROPFIND',
      call: () => ({ path: '', headers: { depth: '1' } }),
      expect: same(207),
      reads: true,
    },
    { method: 'PUT', call: () => ({ path: '', payload: 'new' }), expect: same(403) },
    { method: 'DELETE', call: () => ({ path: '' }), expect: same(403) },
    { method: 'MKCOL', call: () => ({ path: '' }), expect: same(405) },
    {
      method: 'COPY',
      call: (_at, prefix) => ({ path: '', headers: { destination: `http://localhost:80${prefix}/copied` } }),
      expect: same(403),
    },
    {
      method: 'MOVE',
      call: (_at, prefix) => ({ path: '', headers: { destination: `http://localhost:80${prefix}/moved` } }),
      expect: same(403),
    },
    {
      method: 'PROPPATCH',
      call: () => ({
        path: '',
        payload:
          '<D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:example"><D:set><D:prop><Z:colour>teal</Z:colour></D:prop></D:set></D:propertyupdate>',
      }),
      expect: same(207),
    },
    { method: 'LOCK', call: () => ({ path: '', headers: { timeout: 'Second-60' } }), expect: same(412) },
    {
      method: 'UNLOCK',
      call: () => ({ path: '', headers: { 'lock-token': '<opaquelocktoken:none>' } }),
      expect: same(409),
    },
  ];
}

function davRowsOf(
  mount: DavMountCase,
  url: string,
  specs: DavRowSpec[],
  credentialSlots: (number | null)[],
): AccessRow[] {
  const wildcard = url.endsWith('*');
  return specs.map(({ method, call, expect, reads }, i) => ({
    route: `${method} ${url}` as RouteKey,
    request: (s, held) => {
      const { prefix, user } = mount.at(s, held.kind);
      const { path, headers, payload } = call(mount.folder(s, held.kind), prefix);
      const slot = credentialSlots[i]!;
      const authorization =
        slot === null && !SIGNED_IN_DAV_KINDS.includes(held.kind)
          ? undefined
          : davCredentials(s, held.kind, slot ?? i);
      return {
        params: { ...(wildcard ? { '*': path } : {}), ...(user !== undefined ? { user } : {}) },
        headers: { ...headers, ...(authorization ? { authorization } : {}) },
        ...(payload !== undefined ? { payload } : {}),
      };
    },
    // Another user in the path is as unknown as a path that is not there, whatever the method.
    expect: mount.wrongUser && method !== 'OPTIONS' ? { ...expect, stranger: 404, admin: 404 } : expect,
    // Members see the team folder's names in every answer; an editor's writes change the owner's tree.
    seesOwnerData: TEAM_READERS,
    ...(reads ? {} : { changesOwnerData: ['teamEditor' as ActorKind] }),
  }));
}
