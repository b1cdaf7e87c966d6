import {
  CreateShareBody,
  UpdateShareBody,
  type SharePermission,
  type ShareResource,
} from '@atelier/contracts';
import type { z } from 'zod';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import type { ItemReader } from '../files/files.ports';
import type { ItemRow } from '../files/files.tables';
import type { SharingService } from '../sharing/sharing.service';
import { presentOcsShare, PUBLIC_LINK, type OcsShare } from './ocs-shares.presenter';

/** Nextcloud's permission bits (OCP\Constants): read, update, create, delete. */
const READ = 1;
const WRITE_BITS = 2 | 4 | 8;
const DAY_MS = 86_400_000;
/** A path is a few hundred characters; the tree is at most this deep. */
const PATH_MAX = 4096;
const DEPTH_MAX = 256;

/** What a client sends to create or change a link, as text: a form's fields or a JSON body's. */
export type OcsShareFields = Record<string, unknown>;

export interface OcsSharesDeps {
  sharing: Pick<SharingService, 'create' | 'update' | 'revoke' | 'show' | 'listOwned'>;
  items: Pick<ItemReader, 'findOne' | 'findLiveChild' | 'namesDownTo'>;
}

/**
 * Nextcloud's OCS sharing API (apps/files_sharing/api/v1/shares) for public links, mapped onto
 * Atelier's share links: every rule (one link per item, what a file may be shared as, the
 * password's length, how far ahead an expiry may lie) is the sharing service's, given the body it
 * would get from the web app. A share's id is its token; an item is named by its path in the
 * account's own files, so only the account's own items can be shared, and anything else is 404.
 */
export class OcsSharesService {
  constructor(private readonly deps: OcsSharesDeps) {}

  /** The account's links, or those of the item at `path`; none are ever shared with the account. */
  async list(user: UserRow, query: { path?: string; shared_with_me?: string }): Promise<OcsShare[]> {
    if (query.shared_with_me === 'true') return [];
    const item = query.path === undefined ? null : await this.itemAt(user.id, query.path);
    const links = await this.deps.sharing.listOwned(user.id, item ? [item.id] : undefined);
    return Promise.all(links.map((link) => this.present(user, link)));
  }

  async show(user: UserRow, id: string): Promise<OcsShare> {
    return this.present(user, await this.deps.sharing.show(user.id, id));
  }

  async create(user: UserRow, fields: OcsShareFields): Promise<OcsShare> {
    if (text(fields.shareType) !== String(PUBLIC_LINK))
      throw AppError.invalid('shareType', 'sync_clients.shares.link_only');
    const item = await this.itemAt(user.id, text(fields.path) ?? '');
    const password = text(fields.password);
    const expiry = expiresAtOf(text(fields.expireDate));
    const body = parsed(CreateShareBody, {
      id: item.id,
      type: item.type,
      permission: permissionOf(fields) ?? 'visitor',
      isPassword: !!password,
      password: password || null,
      ...(expiry ? { expires_at: expiry } : {}),
    });
    return this.present(user, await this.deps.sharing.create(user.id, body));
  }

  /** Changes what the client sent: the password (empty removes it), the expiry (empty removes it), the permissions. */
  async update(user: UserRow, id: string, fields: OcsShareFields): Promise<OcsShare> {
    const password = text(fields.password);
    const expireDate = text(fields.expireDate);
    const permission = permissionOf(fields);
    const body = parsed(UpdateShareBody, {
      ...(permission ? { permission } : {}),
      ...(password === undefined
        ? {}
        : password === ''
          ? { isPassword: false }
          : { isPassword: true, password }),
      ...(expireDate === undefined
        ? {}
        : expireDate === ''
          ? { expiration: null }
          : { expires_at: expiresAtOf(expireDate) }),
    });
    return this.present(user, await this.deps.sharing.update(user.id, id, body));
  }

  async delete(user: UserRow, id: string): Promise<void> {
    await this.deps.sharing.revoke(user.id, [id]);
  }

  /** The account's live item at a path of its own files (`/Photos/a.jpg`); the root is no item. */
  private async itemAt(ownerId: string, path: string): Promise<ItemRow> {
    const names = path.split('/').filter((name) => name !== '');
    if (path.length > PATH_MAX || names.length > DEPTH_MAX)
      throw new AppError('not_found', 'errors.not_found');
    let item: ItemRow | undefined;
    for (const name of names) {
      item = await this.deps.items.findLiveChild(ownerId, item?.id ?? null, name);
      if (!item) break;
    }
    if (!item) throw new AppError('not_found', 'errors.not_found');
    return item;
  }

  private async present(user: UserRow, link: ShareResource): Promise<OcsShare> {
    const item = await this.deps.items.findOne(user.id, link.attributes.item_id);
    if (!item) throw new AppError('not_found', 'errors.not_found');
    const above = item.parent_id ? await this.deps.items.namesDownTo(user.id, item.parent_id) : [];
    return presentOcsShare(link, item, `/${[...above, item.name].join('/')}`, user);
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}

/**
 * Nextcloud's `permissions` (or `publicUpload`) as Atelier's: read only is a visitor's link, any of
 * update, create and delete an editor's. A file drop (create without read) Atelier has not got.
 */
function permissionOf(fields: OcsShareFields): SharePermission | undefined {
  const upload = text(fields.publicUpload);
  if (upload !== undefined) return upload === 'true' ? 'editor' : 'visitor';
  const bits = text(fields.permissions);
  if (bits === undefined) return undefined;
  const value = /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
  if (!(value & READ)) throw AppError.invalid('permissions', 'sync_clients.shares.permissions');
  return value & WRITE_BITS ? 'editor' : 'visitor';
}

/** A link valid through the day `YYYY-MM-DD` (UTC) ends at the next midnight. */
function expiresAtOf(date: string | undefined): string | undefined {
  if (!date) return undefined;
  const day = /^(\d{4}-\d{2}-\d{2})(?:[ T]00:00:00)?$/.exec(date)?.[1];
  const start = day ? Date.parse(`${day}T00:00:00Z`) : NaN;
  if (Number.isNaN(start)) throw AppError.invalid('expireDate', 'sync_clients.shares.expire_date');
  return new Date(start + DAY_MS).toISOString();
}

/** The body through the sharing contract's own schema, its first refusal as the answer's message. */
function parsed<S extends z.ZodType>(schema: S, body: z.input<S>): z.output<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw AppError.invalid(String(issue.path[0] ?? '_'), issue.message);
}
