import { describe, expect, it } from 'vitest';
import { exceedsMemberLimit, type MemberLimit } from '../../../src/features/teams/invite-rule';

const limit = (overrides: Partial<MemberLimit> = {}): MemberLimit => ({
  subscriptionType: 'fixed',
  total: 2,
  counted: ['ada@atelier.test', 'bo@atelier.test'],
  ...overrides,
});

// Section 5: refused only when all four hold.
describe('the team-invite rule', () => {
  it('refuses a new address once a fixed plan’s members and invitees reach its total', () => {
    expect(exceedsMemberLimit(limit(), 'cy@atelier.test')).toBe(true);
  });

  it('lets anyone in on a metered plan, or with no subscriptions', () => {
    expect(exceedsMemberLimit(limit({ subscriptionType: 'metered' }), 'cy@atelier.test')).toBe(false);
    expect(exceedsMemberLimit(limit({ subscriptionType: 'none' }), 'cy@atelier.test')).toBe(false);
  });

  it('lets anyone in when the total is -1 (unlimited)', () => {
    expect(exceedsMemberLimit(limit({ total: -1 }), 'cy@atelier.test')).toBe(false);
  });

  it('lets a new address in while the counted ones stay under the total', () => {
    expect(exceedsMemberLimit(limit({ total: 3 }), 'cy@atelier.test')).toBe(false);
  });

  it('lets someone already counted in again, whatever the case of their address', () => {
    expect(exceedsMemberLimit(limit(), 'Bo@Atelier.test')).toBe(false);
  });

  it('counts each address once', () => {
    expect(
      exceedsMemberLimit(limit({ counted: ['ada@atelier.test', 'ADA@atelier.test'] }), 'cy@atelier.test'),
    ).toBe(false);
  });
});
