import { CreateShareBody, UpdateShareBody, type ShareAttributes } from '@atelier/contracts';
import { describe, expect, it } from 'vitest';
import { createBody, endOfDay, initialValues, updateBody } from '../../../src/features/sharing/share-form';

function share(overrides: Partial<ShareAttributes> = {}): ShareAttributes {
  return {
    token: 'Abc123Def456Ghi789Jkl012Mno345Pq',
    permission: 'editor',
    protected: true,
    expire_in: 24,
    expires_at: '2026-11-21T10:00:00.000Z',
    item_id: 'folder-1',
    item_type: 'folder',
    link: 'http://atelier.test/share/Abc123Def456Ghi789Jkl012Mno345Pq',
    product: null,
    created_at: '2026-11-20T10:00:00.000Z',
    views: 3,
    downloads: 1,
    ...overrides,
  };
}

describe('share dialog form', () => {
  it('saves nothing when nothing changed: the expiry keeps its end and the password stays', () => {
    const existing = share();
    expect(updateBody(existing, initialValues(existing))).toEqual({});
  });

  it('names only the fields the owner changed', () => {
    const existing = share();
    expect(updateBody(existing, { ...initialValues(existing), permission: 'visitor' })).toEqual({
      permission: 'visitor',
    });
    expect(updateBody(existing, { ...initialValues(existing), expiration: null })).toEqual({
      expiration: null,
    });
    expect(updateBody(existing, { ...initialValues(existing), password: 'new secret' })).toEqual({
      password: 'new secret',
    });
    expect(updateBody(existing, { ...initialValues(existing), isPassword: false })).toEqual({
      isPassword: false,
    });
  });

  it('asks for a password when an open link becomes protected, and sends it with the switch', () => {
    const open = share({ protected: false });
    const switched = { ...initialValues(open), isPassword: true };
    expect(UpdateShareBody.safeParse(updateBody(open, switched)).success).toBe(false);
    expect(updateBody(open, { ...switched, password: 'studio 52' })).toEqual({
      isPassword: true,
      password: 'studio 52',
    });
  });

  it('always shares a file as visitor, whatever the form says', () => {
    const file = { id: 'file-1', type: 'file' as const };
    const body = createBody(file, {
      permission: 'editor',
      isPassword: false,
      password: '',
      expiration: 6,
      until: null,
    });
    expect(body).toEqual({
      id: 'file-1',
      type: 'file',
      permission: 'visitor',
      isPassword: false,
      expiration: 6,
    });
    const fileShare = share({ item_type: 'file', permission: 'visitor' });
    expect(updateBody(fileShare, { ...initialValues(fileShare), permission: 'editor' })).toEqual({});
  });

  it('starts a new link view-only, open and never expiring, and checks it against the contract', () => {
    const values = initialValues();
    expect(values).toEqual({
      permission: 'visitor',
      isPassword: false,
      password: '',
      expiration: null,
      until: null,
    });
    const folder = { id: 'folder-1', type: 'folder' as const };
    expect(CreateShareBody.safeParse(createBody(folder, values)).success).toBe(true);
    expect(CreateShareBody.safeParse(createBody(folder, { ...values, isPassword: true })).success).toBe(
      false,
    );
  });

  it('ends a link on a chosen day: the whole day on the owner’s calendar, sent as its last moment', () => {
    const folder = { id: 'folder-1', type: 'folder' as const };
    const body = createBody(folder, { ...initialValues(), until: '2026-12-24' });
    expect(body).toMatchObject({ expires_at: endOfDay('2026-12-24') });
    expect(body).not.toHaveProperty('expiration');
    expect(new Date(body.expires_at!).getDate()).toBe(24);
    expect(CreateShareBody.safeParse(body).success).toBe(true);

    // A link that ends on a day reads back as that day, and only a change of day or to hours is sent.
    const dated = share({ expire_in: null, expires_at: endOfDay('2026-12-24') });
    expect(initialValues(dated).until).toBe('2026-12-24');
    expect(updateBody(dated, initialValues(dated))).toEqual({});
    expect(updateBody(dated, { ...initialValues(dated), until: '2026-12-31' })).toEqual({
      expires_at: endOfDay('2026-12-31'),
    });
    expect(updateBody(dated, { ...initialValues(dated), until: null, expiration: 48 })).toEqual({
      expiration: 48,
    });
    expect(updateBody(dated, { ...initialValues(dated), until: null, expiration: null })).toEqual({
      expiration: null,
    });
  });
});
