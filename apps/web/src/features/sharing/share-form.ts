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
  /** A last day (yyyy-mm-dd, on the owner's calendar) chosen instead of a lifetime; null: the lifetime. */
  until: string | null;
}

const twoDigits = (n: number) => String(n).padStart(2, '0');

/** The owner's calendar day of a moment, as a date input holds it. */
export function calendarDay(at: Date): string {
  return `${at.getFullYear()}-${twoDigits(at.getMonth() + 1)}-${twoDigits(at.getDate())}`;
}

/** The last moment of a day on the owner's calendar: a link chosen to last until that day works all of it. */
export function endOfDay(day: string): string {
  return new Date(`${day}T23:59:59.999`).toISOString();
}

/** A file is only ever seen and downloaded through its link: its share is always `visitor`. */
export function permissionFor(type: ItemType, wanted: SharePermission): SharePermission {
  return type === 'file' ? 'visitor' : wanted;
}

/** A new link starts view-only, open and without an end; an existing one starts as it is. */
export function initialValues(share?: ShareAttributes): ShareFormValues {
  if (!share)
    return { permission: 'visitor', isPassword: false, password: '', expiration: null, until: null };
  return {
    permission: share.permission,
    isPassword: share.protected,
    password: '',
    expiration: share.expire_in,
    // An end without a lifetime from the list was chosen as a day.
    until: share.expire_in === null && share.expires_at ? calendarDay(new Date(share.expires_at)) : null,
  };
}

export function createBody(item: { id: string; type: ItemType }, values: ShareFormValues): CreateShareBody {
  return {
    id: item.id,
    type: item.type,
    permission: permissionFor(item.type, values.permission),
    isPassword: values.isPassword,
    ...(values.isPassword && values.password !== '' ? { password: values.password } : {}),
    ...(values.until ? { expires_at: endOfDay(values.until) } : { expiration: values.expiration }),
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
  const was = initialValues(share);
  if (values.until !== was.until || (values.until === null && values.expiration !== was.expiration)) {
    if (values.until) body.expires_at = endOfDay(values.until);
    else body.expiration = values.expiration;
  }
  return body;
}
