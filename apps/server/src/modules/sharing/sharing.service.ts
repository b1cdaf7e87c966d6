import {
  SHARE_EXPIRY_MAX_DAYS,
  type CreateShareBody,
  type PublicShareDocument,
  type ShareExpiry,
  type SharePermission,
  type ShareResource,
  type UpdateShareBody,
} from '@atelier/contracts';
import type { UnitOfWork } from '../../db/database';
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { isUniqueViolation } from '../../lib/db-errors';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { hashToken, randomToken } from '../../lib/tokens';
import { ItemAccess, notFound, shareActor, type Actor, type ActorResolver } from '../files/files.access';
import { thumbnailUrl } from '../files/files.presenter';
import type { ItemReader } from '../files/files.ports';
import type { ItemType } from '../files/files.tables';
import type { I18nService } from '../i18n/i18n.service';
import type { MailTemplates } from '../mail/mail.templates';
import type { Mailer } from '../mail/mailer';
import type { NotificationsService } from '../notifications/notifications.service';
import type { UsersService } from '../users/users.service';
import type { MailRecipientQuota } from '../mail/mail-quota';
import type { SharePasswordThrottle } from './share-password-throttle';
import { presentPublicShare, presentShare, shareLink, type SharePreview } from './sharing.presenter';
import type { ShareChanges, SharingRepository } from './sharing.repository';
import type { ShareRow } from './sharing.tables';

/** Characters of a link's token, and how many: 32 of 62 is about 190 bits. */
const TOKEN_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const SHARE_TOKEN_LENGTH = 32;
/** A password opens a link for this long in one browser (the link's own expiry is checked apart). */
export const SHARE_SESSION_HOURS = 24;
/** Expired links stay this long for their owner to see (and renew) before housekeeping removes them. */
export const EXPIRED_SHARE_RETENTION_DAYS = 30;

const HOUR_MS = 3_600_000;

export interface SharingDeps {
  shares: SharingRepository;
  items: ItemReader;
  /** Recipients a day each account may mail with its own text. */
  mailQuota: MailRecipientQuota;
  users: UsersService;
  mailer: Mailer;
  mails: MailTemplates;
  throttle: SharePasswordThrottle;
  /** Tells a link's owner when its password is being guessed at. */
  notifications: NotificationsService;
  i18n: I18nService;
  /** The project whose folder (or output folder) this is: its link is then also a product page. */
  projectFolders: ProjectFolders;
  appUrl: string;
  units: UnitOfWork;
  /** Who the caller is to the item they would share: its owner, or a team's member (who may not). */
  actors: ActorResolver;
  /** The clock every expiry is checked against. */
  now: () => Date;
}

/** What the sharing module reads of the projects module: a project's name by its folder. */
export interface ProjectFolders {
  /** The name of the owner's project whose folder, or output folder, this is; null for any other folder. */
  projectNameOf(ownerId: string, folderId: string): Promise<string | null>;
}

/** A password session for one link: the cookie's raw value, only its hash is stored. */
export interface NewShareSession {
  value: string;
  expiresAt: Date;
}

/** What a call through a link acts as, and the link it came through. */
export interface ShareVisit {
  actor: Actor;
  share: ShareRow;
}

/** 32 characters drawn evenly from [A-Za-z0-9] (bytes past the last whole multiple of 62 are skipped). */
export function newShareToken(): string {
  const limit = 256 - (256 % TOKEN_ALPHABET.length);
  let token = '';
  while (token.length < SHARE_TOKEN_LENGTH) {
    for (const byte of randomBytes(SHARE_TOKEN_LENGTH * 2)) {
      if (byte < limit && token.length < SHARE_TOKEN_LENGTH)
        token += TOKEN_ALPHABET[byte % TOKEN_ALPHABET.length];
    }
  }
  return token;
}

/**
 * Share links: the owner's side (create, edit, e-mail, revoke), and the public side, where every
 * call through a token is checked here (unknown, expired, locked) and turns into a confined Actor
 * for the files services. Only the owner of a link may see or change it; anyone else gets 404.
 */
export class SharingService {
  private readonly access: ItemAccess;

  constructor(private readonly deps: SharingDeps) {
    this.access = new ItemAccess(deps.items);
  }

  // ---- the owner's side --------------------------------------------------------------------

  async create(ownerId: string, body: z.output<typeof CreateShareBody>): Promise<ShareResource> {
    const actor = await this.deps.actors.of(ownerId, [body.id]);
    const item = await this.access.reachOneAsOwner(actor, body.id, 'live', body.type);
    assertPermissionFits(item.type, body.permission);
    const now = this.deps.now();
    const passwordHash = body.isPassword ? await hashPassword(body.password!) : null;
    const share = await this.deps.units.transaction(async () => {
      let made: ShareRow;
      try {
        made = await this.deps.shares.insert({
          token: newShareToken(),
          user_id: ownerId,
          item_id: item.id,
          item_type: item.type,
          permission: body.permission,
          password_hash: passwordHash,
          ...expiryOf(body, now),
          created_at: now.toISOString(),
          updated_at: now.toISOString(),
        });
      } catch (error) {
        // One link per item: the unique item_id settles two creations racing each other too.
        if (isUniqueViolation(error)) throw AppError.invalid('id', 'sharing.already_shared');
        throw error;
      }
      // Taken once the link may be made (a refused one uses none of the day's mail), in its unit: a
      // refused mailing leaves no link behind either.
      if (body.emails?.length) await this.deps.mailQuota.take(ownerId, new Set(body.emails).size);
      return made;
    });
    if (body.emails?.length) await this.mailLink(share, body.emails);
    return this.present(share);
  }

  /** The owner's links, oldest first; only those of these items when they are named. */
  async listOwned(ownerId: string, itemIds?: readonly string[]): Promise<ShareResource[]> {
    const shares = await this.deps.shares.listOwned(ownerId, itemIds);
    return Promise.all(shares.map((share) => this.present(share)));
  }

  async show(ownerId: string, token: string): Promise<ShareResource> {
    return this.present(await this.owned(ownerId, token));
  }

  /** Changes what the body names and keeps the rest; a new or removed password ends its sessions. */
  async update(
    ownerId: string,
    token: string,
    body: z.output<typeof UpdateShareBody>,
  ): Promise<ShareResource> {
    const share = await this.owned(ownerId, token);
    const now = this.deps.now();
    const changes: ShareChanges = {};
    if (body.permission !== undefined) {
      assertPermissionFits(share.item_type, body.permission);
      changes.permission = body.permission;
    }
    let passwordChanged = false;
    if (body.isPassword === false) {
      passwordChanged = share.password_hash !== null;
      changes.password_hash = null;
    } else if (body.password) {
      passwordChanged = true;
      changes.password_hash = await hashPassword(body.password);
    }
    if (body.expiration !== undefined || body.expires_at !== undefined)
      Object.assign(changes, expiryOf(body, now));
    const updated = await this.deps.shares.update(token, changes, passwordChanged, now.toISOString());
    // Revoked while the new password was being hashed.
    if (!updated) throw notFound();
    return this.present(updated);
  }

  /** A link as its owner sees it: a project's link with its product page and embed codes. */
  private async present(share: ShareRow): Promise<ShareResource> {
    const project =
      share.item_type === 'folder'
        ? await this.deps.projectFolders.projectNameOf(share.user_id, share.item_id)
        : null;
    return presentShare(share, this.deps.appUrl, project);
  }

  async email(ownerId: string, token: string, emails: readonly string[]): Promise<void> {
    const share = await this.owned(ownerId, token);
    await this.deps.mailQuota.take(ownerId, new Set(emails).size);
    await this.mailLink(share, emails);
  }

  /**
   * Revokes the links, all or none: one that is not the caller's makes the whole call a 404. Their
   * visitors are told from then on that the owner revoked them.
   */
  async revoke(ownerId: string, tokens: readonly string[]): Promise<void> {
    const unique = [...new Set(tokens)];
    if ((await this.deps.shares.countOwned(ownerId, unique)) !== unique.length) throw notFound();
    await this.deps.shares.revoke(ownerId, unique, this.deps.now().toISOString());
  }

  // ---- the public side ---------------------------------------------------------------------

  /** The link's page: counted as a view; the item's id only once the visitor may open it. */
  async detail(token: string, sessionValue: string | undefined): Promise<PublicShareDocument['data']> {
    const share = await this.open(token);
    const [owner, unlocked] = await Promise.all([
      this.deps.users.findById(share.user_id),
      this.isUnlocked(share, sessionValue),
      this.deps.shares.countView(share.token),
    ]);
    if (!owner) throw notFound();
    return presentPublicShare(share, owner, unlocked);
  }

  /**
   * Checks a protected link's password, counted before it is checked (5 wrong a minute per link and
   * address, 20 per link in 15 minutes, then 429; the owner is told when a link's window fills), and
   * opens a session bound to the password it was given with. Null for a link without a password:
   * there is nothing to unlock.
   */
  async authenticate(token: string, password: string, address: string): Promise<NewShareSession | null> {
    const share = await this.open(token);
    if (share.password_hash === null) return null;
    await this.deps.throttle.begin(share.token, address, () => this.warnOwner(share));
    if (!(await verifyPassword(share.password_hash, password)))
      throw new AppError('unauthenticated', 'sharing.wrong_password', {
        password: ['sharing.wrong_password'],
      });
    await this.deps.throttle.succeeded(share.token, address);

    const now = this.deps.now();
    const expiresAt = new Date(now.getTime() + SHARE_SESSION_HOURS * HOUR_MS);
    const value = randomToken();
    await this.deps.shares.insertSession({
      id: hashToken(value),
      token: share.token,
      password_version: share.password_version,
      created_at: now.toISOString(),
      expires_at: expiresAt.toISOString(),
    });
    return { value, expiresAt };
  }

  /** Every call through a link but the detail and the password: 404, 410 or 401, else a confined actor. */
  async visit(token: string, sessionValue: string | undefined): Promise<ShareVisit> {
    const share = await this.open(token);
    if (!(await this.isUnlocked(share, sessionValue)))
      throw new AppError('unauthenticated', 'sharing.password_required');
    const actor = shareActor({
      token: share.token,
      ownerId: share.user_id,
      itemId: share.item_id,
      canWrite: share.permission === 'editor',
    });
    return { actor, share };
  }

  /**
   * What a link's page shows where no script runs (link previews of chats and social sites): the
   * item's name and thumbnail. Nothing for a link that is protected, expired, revoked or unknown.
   */
  async preview(token: string): Promise<SharePreview | null> {
    const share = await this.deps.shares.findByToken(token);
    if (!share || share.password_hash !== null || this.hasExpired(share)) return null;
    // A trashed item (or one in a trashed folder, which the trash marks too) answers nothing, as
    // every other call through the link does.
    const item = await this.deps.items.findView(share.user_id, share.item_id);
    if (!item || item.deleted_at !== null) return null;
    return {
      title: item.name,
      url: shareLink(this.deps.appUrl, share.token),
      image: item.has_thumbnail ? `${this.deps.appUrl}${thumbnailUrl('md', item.id, share.token)}` : null,
    };
  }

  async countDownload(token: string): Promise<void> {
    await this.deps.shares.countDownload(token);
  }

  // ---- housekeeping ------------------------------------------------------------------------

  /**
   * Removes links that expired long ago and password sessions that ran out. Expired links are
   * refused on every call as soon as they expire; this only keeps the tables small.
   */
  async removeLongExpired(): Promise<number> {
    const now = this.deps.now();
    const retainedSince = new Date(now.getTime() - EXPIRED_SHARE_RETENTION_DAYS * 24 * HOUR_MS).toISOString();
    await this.deps.shares.deleteSessionsExpiredBy(now.toISOString());
    await this.deps.shares.forgetRevokedBefore(retainedSince);
    return this.deps.shares.deleteExpiredBefore(retainedSince);
  }

  // ---- shared ------------------------------------------------------------------------------

  private async owned(ownerId: string, token: string): Promise<ShareRow> {
    const share = await this.deps.shares.findOwned(ownerId, token);
    if (!share) throw notFound();
    return share;
  }

  /**
   * A link as any call through it first sees it: unknown 404, revoked or expired 410 with whom to
   * ask, item gone 404.
   */
  private async open(token: string): Promise<ShareRow> {
    const share = await this.deps.shares.findByToken(token);
    const item = share && (await this.deps.items.findOne(share.user_id, share.item_id));
    if (!share || !item) {
      const revoked = await this.deps.shares.findRevoked(token);
      if (revoked) throw await this.ended('share_revoked', revoked.user_id, revoked.revoked_at);
      throw notFound();
    }
    if (this.hasExpired(share)) throw await this.ended('share_expired', share.user_id, share.expires_at!);
    if (item.deleted_at !== null) throw notFound();
    return share;
  }

  /** The refusal of a link that ended, naming its owner, whom its visitors can ask for a new one. */
  private async ended(code: 'share_revoked' | 'share_expired', ownerId: string, endedAt: string) {
    const owner = await this.deps.users.findById(ownerId);
    if (!owner) return notFound();
    return AppError.linkEnded(
      code,
      code === 'share_revoked' ? 'sharing.revoked' : 'sharing.expired',
      owner.name,
      endedAt,
    );
  }

  private hasExpired(share: ShareRow): boolean {
    return share.expires_at !== null && new Date(share.expires_at) <= this.deps.now();
  }

  /** Open to all without a password; with one, to a live session opened with the current password. */
  private async isUnlocked(share: ShareRow, sessionValue: string | undefined): Promise<boolean> {
    if (share.password_hash === null) return true;
    if (!sessionValue) return false;
    const session = await this.deps.shares.findSession(
      hashToken(sessionValue),
      share.token,
      this.deps.now().toISOString(),
    );
    return session?.password_version === share.password_version;
  }

  /** A notification to the owner of a link whose password is being guessed at. */
  private async warnOwner(share: ShareRow): Promise<void> {
    const item = await this.deps.items.findOne(share.user_id, share.item_id);
    const vars = { item: item?.name ?? '' };
    await this.deps.notifications.notify(share.user_id, {
      category: 'security-alert',
      title: await this.deps.i18n.translate('notifications.share_guessing.title', vars),
      description: await this.deps.i18n.translate('notifications.share_guessing.description', vars),
      action: {
        type: 'route',
        params: {
          route: 'MySharedItems',
          button: await this.deps.i18n.translate('notifications.share_guessing.button'),
        },
      },
    });
  }

  /** One e-mail per address with the link, the item's name and who shares it (never the password). */
  private async mailLink(share: ShareRow, emails: readonly string[]): Promise<void> {
    const [owner, item] = await Promise.all([
      this.deps.users.findById(share.user_id),
      this.deps.items.findOne(share.user_id, share.item_id),
    ]);
    const link = shareLink(this.deps.appUrl, share.token);
    for (const to of new Set(emails)) {
      await this.deps.mailer.send(
        await this.deps.mails.shareLink(to, { link, item: item?.name ?? '', owner: owner?.name ?? '' }),
      );
    }
  }
}

/** A file is only ever shared for viewing; editing needs a folder to work in. */
function assertPermissionFits(itemType: ItemType, permission: SharePermission): void {
  if (itemType === 'file' && permission !== 'visitor')
    throw AppError.invalid('permission', 'sharing.file_visitor_only');
}

/**
 * A link's end: a lifetime from the list (null: none), or a chosen last moment, which must lie ahead
 * and within SHARE_EXPIRY_MAX_DAYS.
 */
function expiryOf(
  body: { expiration?: ShareExpiry; expires_at?: string },
  now: Date,
): { expire_in: number | null; expires_at: string | null } {
  if (body.expires_at === undefined) {
    const hours = body.expiration ?? null;
    return hours === null
      ? { expire_in: null, expires_at: null }
      : { expire_in: hours, expires_at: new Date(now.getTime() + hours * HOUR_MS).toISOString() };
  }
  const at = new Date(body.expires_at);
  if (at <= now) throw AppError.invalid('expires_at', 'sharing.expires_at_past');
  if (at.getTime() - now.getTime() > SHARE_EXPIRY_MAX_DAYS * 24 * HOUR_MS)
    throw AppError.invalid('expires_at', 'sharing.expires_at_far');
  return { expire_in: null, expires_at: at.toISOString() };
}
