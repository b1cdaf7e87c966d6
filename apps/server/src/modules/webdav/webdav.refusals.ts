/**
 * Why a WebDAV request is refused, in the protocol's own terms: RFC 4918 gives each its status and,
 * for some, a precondition element, which clients act on; the routes map them (webdav.routes.ts).
 */
export type DavRefusalReason =
  /** A path, name, header or Destination the protocol does not accept. */
  | 'malformed'
  /** No credentials, or wrong ones. */
  | 'unauthenticated'
  | 'not_found'
  /** A write outside My files and the team folders (the virtual collections above them). */
  | 'outside_tree'
  /** A tree's root (My files, or a team folder seen by a member) is no item to delete, move or make, nor a member's to lock. */
  | 'tree_root'
  /** A copy or move onto the source itself or below it. */
  | 'into_itself'
  /** An UNLOCK of someone else's lock by anyone but the tree's owner. */
  | 'not_lock_holder'
  /** A PROPFIND of infinite depth, which is not served. */
  | 'infinite_depth'
  /** GET of a collection, PUT onto a folder: the method has no meaning for the resource. */
  | 'not_a_file'
  /** MKCOL where something already is. */
  | 'already_exists'
  | 'method_not_allowed'
  /** The folder a new item would go into does not exist (no intermediate collections are made). */
  | 'missing_parent'
  /** An UNLOCK naming a token that is no lock on the resource. */
  | 'lock_not_on_resource'
  /** The `If` header does not hold, or an existing destination may not be overwritten. */
  | 'precondition_failed'
  /** A lock refresh without a submitted token of the user's lock on the resource. */
  | 'no_lock_to_refresh'
  /** A lock is in the way and the request submits none of its tokens. */
  | 'locked'
  /** A new lock would conflict with one that holds. */
  | 'lock_conflict'
  | 'body_too_large'
  /** A body where the method takes none. */
  | 'unexpected_body'
  /** A Destination on another server or outside WebDAV. */
  | 'foreign_destination'
  /** The owner's quota leaves no room for the bytes. */
  | 'insufficient_storage';

/** A refusal of a WebDAV request: services say why, the routes answer with the protocol's status. */
export class DavRefusal extends Error {
  constructor(readonly reason: DavRefusalReason) {
    super(`WebDAV refusal: ${reason}`);
  }
}

/** What became of one property of a PROPPATCH, which succeeds or fails as a whole. */
export type PropertyOutcome =
  | 'applied'
  /** A live property, or a property of something that is no item: not the client's to change. */
  | 'protected'
  /** Past PROPERTY_LIMITS or the owner's quota. */
  | 'over_limit'
  /** Not applied because another property of the patch failed. */
  | 'not_applied';
