import type {
  CreateShareBody,
  ItemType,
  ShareAttributes,
  ShareExpiry,
  SharePermission,
  UpdateShareBody,
} from '@atelier/contracts';

/** What the share dialog's form holds; `password` is only ever what the owner typed just now. */
export interface ShareFormValues {
  permission: SharePermission;
  isPassword: boolean;
  password: string;
  expiration: ShareExpiry;
}

/** A file is only ever seen and downloaded through its link: its share is always `visitor`. */
export function permissionFor(type: ItemType, wanted: SharePermission): SharePermission {
  return type === 'file' ? 'visitor' : wanted;
}

/** A new link starts view-only, open and without an end; an existing one starts as it is. */
export function initialValues(share?: ShareAttributes): ShareFormValues {
  if (!share) return { permission: 'visitor', isPassword: false, password: '', expiration: null };
  return {
    permission: share.permission,
    isPassword: share.protected,
    password: '',
    expiration: share.expire_in,
  };
}

export function createBody(item: { id: string; type: ItemType }, values: ShareFormValues): CreateShareBody {
  return {
    id: item.id,
    type: item.type,
    permission: permissionFor(item.type, values.permission),
    isPassword: values.isPassword,
    ...(values.isPassword && values.password !== '' ? { password: values.password } : {}),
    expiration: values.expiration,
  };
}

/**
 * Only what the owner changed: a field the patch leaves out keeps its value on the server, so an
 * untouched expiry keeps its end (re-sending it would restart the clock) and an untouched
 * password stays the same password.
 */
export function updateBody(share: ShareAttributes, values: ShareFormValues): UpdateShareBody {
  const body: UpdateShareBody = {};
  const permission = permissionFor(share.item_type, values.permission);
  if (permission !== share.permission) body.permission = permission;
  if (values.isPassword !== share.protected) body.isPassword = values.isPassword;
  if (values.isPassword && values.password !== '') body.password = values.password;
  if (values.expiration !== share.expire_in) body.expiration = values.expiration;
  return body;
}
