import { describe, expect, it } from 'vitest';
import { GIGABYTE, SETTING_DEFAULTS, type Settings } from '../../src/modules/settings/settings.defaults';
import { AccountLimitsService, type BillingTerms } from '../../src/modules/users/account-limits.service';

const OWNER = 'owner-1';

/** The service over fakes: an account with `storageCapacity`, the instance `settings`, billing's `terms`. */
function limitsFor({
  storageCapacity = null,
  settings = {},
  terms = { plan: null, restriction: null },
  used = 0,
}: {
  storageCapacity?: number | null;
  settings?: Partial<Settings>;
  terms?: BillingTerms;
  used?: number;
}) {
  const asked: string[] = [];
  const service = new AccountLimitsService({
    // The account's capacity alone: no whole row, no user resource.
    users: {
      storageCapacity: async (id) => {
        asked.push(`capacity ${id}`);
        return id === OWNER ? { storage_capacity: storageCapacity } : undefined;
      },
    },
    settings: { all: async () => ({ ...SETTING_DEFAULTS, ...settings }) },
    i18n: { translate: async (key) => `text of ${key}` },
    billing: {
      terms: async (userId) => {
        asked.push(`terms ${userId}`);
        return terms;
      },
      restriction: async (userId) => {
        asked.push(`restriction ${userId}`);
        return terms.restriction;
      },
    },
    usedBytes: async (userId) => {
      asked.push(`used ${userId}`);
      return used;
    },
  });
  return { service, asked };
}

describe('account limits', () => {
  it("reads the account's capacity, billing terms and bytes used of the owner, and nothing else", async () => {
    const { service, asked } = limitsFor({ used: 10 });
    expect(await service.of(OWNER)).toEqual({
      capacity: 5 * GIGABYTE,
      used: 10,
      teamMembers: -1,
      restrictions: {
        canUpload: true,
        canDownload: true,
        canCreateFolder: true,
        canCreateTeamFolder: true,
        reason: null,
      },
    });
    expect(asked.sort()).toEqual([`capacity ${OWNER}`, `terms ${OWNER}`, `used ${OWNER}`]);
  });

  it('stops uploads once the bytes used reach the capacity, with the reason', async () => {
    const full = await limitsFor({ storageCapacity: 100, used: 100 }).service.of(OWNER);
    expect(full.capacity).toBe(100);
    expect(full.restrictions).toMatchObject({
      canUpload: false,
      canDownload: true,
      canCreateFolder: true,
      reason: 'text of restrictions.storage_full',
    });
    const roomLeft = await limitsFor({ storageCapacity: 100, used: 99 }).service.of(OWNER);
    expect(roomLeft.restrictions).toMatchObject({ canUpload: true, reason: null });
  });

  it('holds no capacity when storage is not limited, however much is used', async () => {
    const { capacity, restrictions } = await limitsFor({
      settings: { storage_limitation: false },
      used: 10 * GIGABYTE,
    }).service.of(OWNER);
    expect(capacity).toBeNull();
    expect(restrictions.canUpload).toBe(true);
  });

  it("gives a fixed plan's storage and members, unless the admin's capacity is larger", async () => {
    const plan = { maxStorageAmount: 50, maxTeamMembers: 0 };
    const planned = await limitsFor({ terms: { plan, restriction: null } }).service.of(OWNER);
    expect(planned.capacity).toBe(50 * GIGABYTE);
    expect(planned.teamMembers).toBe(0);
    expect(planned.restrictions.canCreateTeamFolder).toBe(false);
    const gifted = await limitsFor({
      storageCapacity: 80 * GIGABYTE,
      terms: { plan, restriction: null },
    }).service.of(OWNER);
    expect(gifted.capacity).toBe(80 * GIGABYTE);
  });

  it("restricts everything an unpaid metered account does, in billing's words", async () => {
    const { restrictions } = await limitsFor({
      terms: { plan: null, restriction: 'pay 3.00 USD' },
    }).service.of(OWNER);
    expect(restrictions).toEqual({
      canUpload: false,
      canDownload: false,
      canCreateFolder: false,
      canCreateTeamFolder: false,
      reason: 'pay 3.00 USD',
    });
  });

  it("refuses downloads in billing's words only while metered use is unpaid, reading nothing else", async () => {
    const paid = limitsFor({ storageCapacity: 100, used: 100 });
    expect(await paid.service.downloadRefusal(OWNER)).toBeNull();
    expect(paid.asked).toEqual([`restriction ${OWNER}`]);
    const unpaid = limitsFor({ terms: { plan: null, restriction: 'pay 3.00 USD' } });
    expect(await unpaid.service.downloadRefusal(OWNER)).toBe('pay 3.00 USD');
  });

  it('fails for an owner that is gone', async () => {
    await expect(limitsFor({}).service.of('someone-else')).rejects.toThrow('Owner someone-else is gone');
  });
});
