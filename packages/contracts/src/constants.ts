// Business constants of the product description (section 9); server and web read them from here.
// Nothing here imports zod: the web app's first screens read them through `@atelier/contracts/constants`
// without loading a schema (test/constants-entry.test.ts keeps it so).
export * from './accent';
export * from './text-controls';

export const TOAST_DURATION_MS = 6000;
export const LOGOUT_POPUP_DELAY_MS = 300;
export const SETTINGS_DEBOUNCE_MS = 150;
export const REALTIME_TEST_SEND_DELAY_MS = 1500;
export const REALTIME_TEST_TIMEOUT_MS = 10_000;
export const NEW_FOLDER_FOCUS_DELAY_MS = 10;
export const UNREAD_HIGHLIGHT_FADE_MS = 1000;
export const NOTIFICATION_CENTRE_WIDTH_PX = 360;
export const UPLOAD_PROGRESS_CAP = 100;
export const CHUNK_UPLOAD_RETRIES = 3;
export const TEAM_MEMBERS_UNLIMITED = -1;
export const SHARE_EXPIRY_HOURS = [1, 2, 6, 12, 24, 48, 168] as const;
/** How far ahead a link's chosen last day may lie. */
export const SHARE_EXPIRY_MAX_DAYS = 365;
/** An upload request's lifetime in hours: 72 unless the owner picks another, at most 30 days. */
export const UPLOAD_REQUEST_DEFAULT_HOURS = 72;
export const UPLOAD_REQUEST_MAX_HOURS = 720;
/** The description's account-age cutoff: the default of the `file_manager_cutoff` setting. */
export const ACCOUNT_AGE_CUTOFF = '2024-03-19';
export const CARD_PAYMENT_REFERENCE_LENGTH = 10;
export const APP_CHUNK_LOAD_TIMEOUT_MS = 120_000;

export const DEFAULT_SORT = 'created_at';
export const DEFAULT_DIRECTION = 'desc';
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

/** Sign-in throttling: this many failures a minute per e-mail and address answer 429. */
export const LOGIN_MAX_FAILURES_PER_MINUTE = 5;
/** ...and this many a minute from one address, whatever the e-mails, so a flood of guesses cannot keep the password hashing busy. */
export const LOGIN_MAX_FAILURES_PER_ADDRESS_PER_MINUTE = 30;
/**
 * ...and this many per account in a window of LOGIN_ACCOUNT_WINDOW_MINUTES, whatever the addresses,
 * so guesses spread over many addresses stop too. While it is full only a browser that signed in to
 * the account before (or reset its password) may still try.
 */
export const LOGIN_MAX_FAILURES_PER_ACCOUNT = 10;
export const LOGIN_ACCOUNT_WINDOW_MINUTES = 15;

/** A share link's password: at least this many characters. */
export const SHARE_PASSWORD_MIN_LENGTH = 8;
/** Wrong share passwords one address (an IPv6 /64) may try on one link in a minute. */
export const SHARE_PASSWORD_MAX_FAILURES_PER_MINUTE = 5;
/** Wrong passwords checked on one link in a window of SHARE_PASSWORD_LINK_WINDOW_MINUTES, whatever the addresses. */
export const SHARE_PASSWORD_MAX_FAILURES_PER_LINK = 20;
export const SHARE_PASSWORD_LINK_WINDOW_MINUTES = 15;

/** Avatar size rule: 52 px or more uses md, above 32 uses sm, otherwise xs. */
export function avatarSizeFor(px: number): 'md' | 'sm' | 'xs' {
  if (px >= 52) return 'md';
  if (px > 32) return 'sm';
  return 'xs';
}

/** The instance's choice of who gets the file manager (settings `file_manager_cutoff`, `file_manager_for_all`). */
export interface FileManagerAccess {
  /** A calendar day, YYYY-MM-DD: accounts created before it (UTC) get the file manager. */
  cutoff: string;
  /** Every account gets it, whatever its age. */
  forAll: boolean;
}

export const DESCRIPTION_FILE_MANAGER_ACCESS: FileManagerAccess = {
  cutoff: ACCOUNT_AGE_CUTOFF,
  forAll: false,
};

/** dateStatus: whether an account gets the file manager (a normal user's full sidebar). */
export function dateStatusFor(
  createdAt: string | Date,
  access: FileManagerAccess = DESCRIPTION_FILE_MANAGER_ACCESS,
): boolean {
  return access.forAll || new Date(createdAt).getTime() < Date.parse(`${access.cutoff}T00:00:00.000Z`);
}

/**
 * Amazon S3's public regions, offered while typing a region: an S3-compatible store may name its own
 * (MinIO, Ceph, a provider's), so any other value stays allowed.
 */
export const S3_REGIONS = [
  'us-east-1',
  'us-east-2',
  'us-west-1',
  'us-west-2',
  'ca-central-1',
  'ca-west-1',
  'sa-east-1',
  'mx-central-1',
  'eu-central-1',
  'eu-central-2',
  'eu-west-1',
  'eu-west-2',
  'eu-west-3',
  'eu-north-1',
  'eu-south-1',
  'eu-south-2',
  'il-central-1',
  'me-central-1',
  'me-south-1',
  'af-south-1',
  'ap-east-1',
  'ap-south-1',
  'ap-south-2',
  'ap-northeast-1',
  'ap-northeast-2',
  'ap-northeast-3',
  'ap-southeast-1',
  'ap-southeast-2',
  'ap-southeast-3',
  'ap-southeast-4',
  'ap-southeast-5',
  'ap-southeast-7',
] as const;

/** The language every other one starts from and falls back to; it cannot be removed. */
export const SOURCE_LOCALE = 'en';

/** Socket.IO is served under this path, beside /api on the same origin. */
export const REALTIME_PATH = '/socket.io';

/**
 * The cookie the wizard carries the one-time setup token in: the server prints the token at start
 * (`/install?token=…`) and every wizard call needs it, so only who started the server can install it.
 */
export const SETUP_TOKEN_COOKIE = 'atelier_setup_token';
/**
 * What the web app may read of the session (its cookie is httpOnly): that this browser has one, so a
 * page asks who is signed in only then, and no anonymous visit logs a refused `/api/user`. It proves
 * nothing; the session cookie alone signs in.
 */
export const SIGNED_IN_COOKIE = 'atelier_signed_in';

/** The schemes a link the app shows may use (`NotificationUrl`): a `javascript:` link would run in the app. */
export const WEB_URL_PROTOCOL = /^https?$/;

/** Whether `text` is an absolute http(s) address, the rule of `NotificationUrl` without loading zod. */
export function isWebUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  return WEB_URL_PROTOCOL.test(new URL(text).protocol.slice(0, -1));
}

/**
 * Model files the render engine reads (its importers' extensions); the project upload refuses others.
 * The server's tests check this list against @atelier/render so the two never drift apart. Here, not
 * with the studio's schemas, so the file manager tells models apart without loading them.
 */
export const MODEL_EXTENSIONS = [
  'step',
  'stp',
  'iges',
  'igs',
  'brep',
  'brp',
  'stl',
  'obj',
  'ply',
  'gltf',
  'glb',
  '3mf',
] as const;

export function isModelFileName(name: string): boolean {
  const dot = name.lastIndexOf('.');
  return dot > 0 && (MODEL_EXTENSIONS as readonly string[]).includes(name.slice(dot + 1).toLowerCase());
}

/** The most bytes one delta upload block may carry (the chunker's largest block). */
export const BLOCK_MAX_BYTES = 4 * 1024 * 1024;
/** The most blocks one delta upload call may name (the web client sends a larger file by chunks). */
export const BLOCKS_MAX_HASHES = 20_000;
