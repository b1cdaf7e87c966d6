import { AppError } from '../../lib/app-error';
import type { ItemReader, ListedFolder } from './files.ports';
import type { ItemRow, ItemType } from './files.tables';

/**
 * Who is acting on a tree of items: the owner, a visitor of a share link (confined to the shared
 * item, read-only unless the link makes them an editor), or the outsider of an upload request
 * (confined to the request's folder, seeing only what came through the request). A team member
 * becomes another way to build one, and every check below keeps working unchanged.
 */
export interface Actor {
  /** The user whose items are reached: every query is scoped to this owner. */
  readonly ownerId: string;
  /** The signed-in person, for personal marks (favourites); null for an anonymous visitor. */
  readonly userId: string | null;
  /**
   * The item the actor is confined to (it and everything live below it); null for the whole tree.
   * A confined actor never sees the trash, and the item itself stays as its owner made it.
   */
  readonly rootId: string | null;
  readonly canWrite: boolean;
  /** The share link the actor came through: the addresses of items go through it. */
  readonly shareToken: string | null;
  /**
   * The upload request the actor came through: it reaches only the items made through the request
   * (never what the folder held before) and reads no bytes, so a request link is no way to hand out files.
   */
  readonly uploadRequestId: string | null;
  /**
   * The folder a page is asked of, read in the owner's tree with the actor it decided
   * (ActorResolver.ofFolderPage), with its marks for `userId`, its counts and the owner's listing
   * version: the page's access is checked on this row, and nothing of it is read again.
   */
  readonly listed?: ListedFolder;
}

export function ownerActor(userId: string): Actor {
  return { ownerId: userId, userId, rootId: null, canWrite: true, shareToken: null, uploadRequestId: null };
}

/** A visitor of a share link: the shared item's owner's tree, confined to that item. */
export function shareActor(share: {
  token: string;
  ownerId: string;
  itemId: string;
  canWrite: boolean;
}): Actor {
  return {
    ownerId: share.ownerId,
    userId: null,
    rootId: share.itemId,
    canWrite: share.canWrite,
    shareToken: share.token,
    uploadRequestId: null,
  };
}

/** A member of a team folder: the owner's tree, confined to the team folder, writing with `can_edit`. */
export function memberActor(member: {
  ownerId: string;
  userId: string;
  folderId: string;
  canWrite: boolean;
}): Actor {
  return {
    ownerId: member.ownerId,
    userId: member.userId,
    rootId: member.folderId,
    canWrite: member.canWrite,
    shareToken: null,
    uploadRequestId: null,
  };
}

/**
 * Who a signed-in user acts as in a call about the items it names (`anchors`, any of which may be
 * absent): the owner of their own tree, or a member of a team folder that holds the first named item.
 */
export interface ActorResolver {
  of(userId: string, anchors: readonly (string | null | undefined)[]): Promise<Actor>;
  /** As `of`, for a page of the folder `ref` names: the actor carries that folder (`listed`) when it is in its tree. */
  ofFolderPage(userId: string, ref: string): Promise<Actor>;
}

/** The folder the actor was resolved from, when it is the item `id` of the actor's owner's tree. */
export function listedAs(actor: Actor, id: string | null): ListedFolder | null {
  const { listed } = actor;
  return listed && listed.id === id && listed.user_id === actor.ownerId ? listed : null;
}

/** The outsider of an upload request: the request folder's owner's tree, only what the request received. */
export function uploadRequestActor(request: { id: string; ownerId: string; folderId: string }): Actor {
  return {
    ownerId: request.ownerId,
    userId: null,
    rootId: request.folderId,
    canWrite: true,
    shareToken: null,
    uploadRequestId: request.id,
  };
}

/** The folder's owner themself, signed in (not through a link, a request or a team). */
export function isOwner(actor: Actor): boolean {
  return actor.userId === actor.ownerId && actor.shareToken === null && actor.uploadRequestId === null;
}

/**
 * Why the owner's account refuses a write, as the actor may read it: the owner's standing (an unpaid
 * bill and its amount) is told to the owner alone; anyone else gets the refusal's plain words.
 */
export function refusalReasonFor(actor: Actor, reason: string | null): string | null {
  return isOwner(actor) ? reason : null;
}

/**
 * The prefixes of the upload sessions the server keeps under keys of its own (block and quota holds,
 * whole-body uploads, WebDAV chunks) and of the per-actor spaces below: no client key may begin so.
 */
export const SERVER_SESSION_KEY = /^(?:block|reservation|whole|dav-chunk|request|share|member):/;

/**
 * The key an upload's chunks are found by: the client's key, kept apart per link or request, so a
 * visitor can never continue (or learn of) an upload someone else started in the same tree.
 */
export function uploadKeyOf(actor: Actor, clientKey: string): string {
  if (actor.uploadRequestId) return `request:${actor.uploadRequestId}:${clientKey}`;
  if (actor.shareToken) return `share:${actor.shareToken}:${clientKey}`;
  if (actor.userId && actor.userId !== actor.ownerId) return `member:${actor.userId}:${clientKey}`;
  return clientKey;
}

export type ItemState = 'live' | 'trashed' | 'any';

function inState(row: ItemRow, state: ItemState | 'none'): boolean {
  if (state === 'any') return true;
  if (state === 'none') return false;
  return state === 'live' ? row.deleted_at === null : row.deleted_at !== null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A folder reference names the root when it is absent, `all`, or anything that is not an id. */
export function folderIdOf(ref: string | null | undefined): string | null {
  return ref && UUID.test(ref) ? ref : null;
}

/** Answers 404 for anything the actor may not reach, so a foreign id looks exactly like a missing one. */
export class ItemAccess {
  constructor(private readonly items: Pick<ItemReader, 'findMany' | 'ancestorIds'>) {}

  assertCanWrite(actor: Actor): void {
    if (!actor.canWrite) throw new AppError('forbidden', 'errors.forbidden');
  }

  /** An upload request's outsider sends files and never reads any back. */
  assertCanReadBytes(actor: Actor): void {
    if (actor.uploadRequestId !== null) throw notFound();
  }

  /**
   * An upload request's outsider changes what came through the request alone: a folder they made
   * that the owner has since filed something in (which the outsider never sees) is not theirs to remove.
   */
  assertAllReceived(actor: Actor, rows: readonly ItemRow[]): void {
    if (
      actor.uploadRequestId !== null &&
      rows.some((row) => row.deleted_at === null && row.upload_request_id !== actor.uploadRequestId)
    )
      throw new AppError('forbidden', 'errors.forbidden');
  }

  /** Views over the whole tree (latest, search, trash, usage) are the owner's alone. */
  assertWholeTree(actor: Actor): void {
    if (actor.rootId !== null) throw new AppError('forbidden', 'errors.forbidden');
  }

  /** The named items, each of the named type and state, all reachable; else 404 and nothing happens. */
  async reach(
    actor: Actor,
    refs: readonly { id: string; type?: ItemType }[],
    state: ItemState,
  ): Promise<ItemRow[]> {
    const ids = [...new Set(refs.map((r) => r.id))];
    // The folder the actor was resolved from was read whole with it: every check below runs on that row.
    const listed = ids.length === 1 ? listedAs(actor, ids[0]!) : null;
    const rows = listed
      ? [listed]
      : await this.items.findMany(
          actor.ownerId,
          ids.filter((id) => UUID.test(id)),
        );
    const byId = new Map(rows.map((r) => [r.id, r]));
    // The trash is the owner's alone: a confined actor reaches live items only.
    const wanted = actor.rootId === null ? state : state === 'trashed' ? 'none' : 'live';
    for (const ref of refs) {
      const row = byId.get(ref.id);
      if (!row || (ref.type && row.type !== ref.type) || !inState(row, wanted)) throw notFound();
      // An upload request's outsider reaches its folder and what came through the request, nothing else.
      if (actor.uploadRequestId && row.id !== actor.rootId && row.upload_request_id !== actor.uploadRequestId)
        throw notFound();
    }
    if (actor.rootId) await Promise.all(rows.map((row) => this.assertInsideRoot(actor, row.id)));
    return ids.map((id) => byId.get(id)!);
  }

  /** As `reach`, for a change: the item a confined actor is confined to is not theirs to change. */
  async reachToChange(
    actor: Actor,
    refs: readonly { id: string; type?: ItemType }[],
    state: ItemState,
  ): Promise<ItemRow[]> {
    const rows = await this.reach(actor, refs, state);
    if (rows.some((row) => row.id === actor.rootId)) throw new AppError('forbidden', 'errors.forbidden');
    return rows;
  }

  /**
   * As `reach`, for what only the tree's owner may do with items (a share link, an upload request,
   * a project of theirs): anyone else who reaches them, a team's member, is told they are not theirs (403).
   */
  async reachAsOwner(
    actor: Actor,
    refs: readonly { id: string; type?: ItemType }[],
    state: ItemState,
  ): Promise<ItemRow[]> {
    const rows = await this.reach(actor, refs, state);
    if (!isOwner(actor)) throw new AppError('forbidden', 'errors.forbidden');
    return rows;
  }

  /** `reachAsOwner` for one item. */
  async reachOneAsOwner(actor: Actor, id: string, state: ItemState, type?: ItemType): Promise<ItemRow> {
    const [row] = await this.reachAsOwner(actor, [{ id, type }], state);
    return row!;
  }

  async reachOne(actor: Actor, id: string, state: ItemState, type?: ItemType): Promise<ItemRow> {
    const [row] = await this.reach(actor, [{ id, type }], state);
    return row!;
  }

  /** The live folder a reference names, or null for the actor's root (the confining folder, if any). */
  async folder(actor: Actor, ref: string | null | undefined): Promise<ItemRow | null> {
    const id = folderIdOf(ref) ?? actor.rootId;
    return id ? this.reachOne(actor, id, 'live', 'folder') : null;
  }

  private async assertInsideRoot(actor: Actor, id: string): Promise<void> {
    const ancestors = await this.items.ancestorIds(actor.ownerId, id);
    const at = ancestors.indexOf(actor.rootId!);
    if (at < 0) throw notFound();
    // An outsider reaches what came through the request by way of folders that came through it too:
    // their file that the owner filed in a folder of the owner's is the owner's now, as that folder is.
    const between = ancestors.slice(1, at);
    if (actor.uploadRequestId === null || between.length === 0) return;
    const folders = await this.items.findMany(actor.ownerId, between);
    if (
      folders.length !== between.length ||
      folders.some((f) => f.upload_request_id !== actor.uploadRequestId)
    )
      throw notFound();
  }
}

export function notFound(): AppError {
  return new AppError('not_found', 'errors.not_found');
}
