import { AppError } from '../../lib/app-error';
import type { FilesRepository } from './files.repository';
import type { ItemRow, ItemType } from './files.tables';

/**
 * Who is acting on a tree of items. Today only an owner; a share-token visitor or a team member
 * becomes another way to build one (confined to `rootId`, perhaps read-only), and every check
 * below keeps working unchanged.
 */
export interface Actor {
  /** The user whose items are reached: every query is scoped to this owner. */
  readonly ownerId: string;
  /** The signed-in person, for personal marks (favourites); null for an anonymous visitor. */
  readonly userId: string | null;
  /** The folder the actor is confined to (it and everything below); null for the whole tree. */
  readonly rootId: string | null;
  readonly canWrite: boolean;
}

export function ownerActor(userId: string): Actor {
  return { ownerId: userId, userId, rootId: null, canWrite: true };
}

export type ItemState = 'live' | 'trashed' | 'any';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A folder reference names the root when it is absent, `all`, or anything that is not an id. */
export function folderIdOf(ref: string | null | undefined): string | null {
  return ref && UUID.test(ref) ? ref : null;
}

/** Answers 404 for anything the actor may not reach, so a foreign id looks exactly like a missing one. */
export class ItemAccess {
  constructor(private readonly items: FilesRepository) {}

  assertCanWrite(actor: Actor): void {
    if (!actor.canWrite) throw new AppError('forbidden', 'errors.forbidden');
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
    const rows = await this.items.findMany(
      actor.ownerId,
      ids.filter((id) => UUID.test(id)),
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const ref of refs) {
      const row = byId.get(ref.id);
      const stateMatches =
        state === 'any' || (state === 'live' ? row?.deleted_at === null : row?.deleted_at !== null);
      if (!row || (ref.type && row.type !== ref.type) || !stateMatches) throw notFound();
    }
    if (actor.rootId) await Promise.all(rows.map((row) => this.assertInsideRoot(actor, row.id)));
    return ids.map((id) => byId.get(id)!);
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
    if (!ancestors.includes(actor.rootId!)) throw notFound();
  }
}

export function notFound(): AppError {
  return new AppError('not_found', 'errors.not_found');
}
