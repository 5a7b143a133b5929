import { describe, expect, it } from 'vitest';
import { TAB_TITLES, isSettingsTab, resolveTab, searchForTab, searchWith, settingsTabs } from '../src/tabs';

describe('settings tabs', () => {
  it("a business user gets the spec's business tabs in order, then security", () => {
    expect(settingsTabs({ userType: 'business', inFirm: false, hasWorkspace: true })).toEqual([
      'profile',
      'entities',
      'organization',
      'audit-log',
      'billing',
      'security',
    ]);
  });

  it("a business user who belongs to a firm also gets the firm's tabs", () => {
    expect(settingsTabs({ userType: 'business', inFirm: true, hasWorkspace: true })).toEqual([
      'profile',
      'entities',
      'organization',
      'audit-log',
      'billing',
      'firm-management',
      'firm-team-management',
      'security',
    ]);
  });

  it("a firm user gets the firm profile area; the client workspace's tabs only once one is selected", () => {
    expect(settingsTabs({ userType: 'firm', inFirm: true, hasWorkspace: false })).toEqual(['profile', 'firm-management', 'firm-team-management', 'security']);
    expect(settingsTabs({ userType: 'firm', inFirm: true, hasWorkspace: true })).toEqual([
      'profile',
      'firm-management',
      'firm-team-management',
      'entities',
      'organization',
      'audit-log',
      'billing',
      'security',
    ]);
  });

  it("titles are the spec's (business and firm settings titles)", () => {
    expect([TAB_TITLES.profile, TAB_TITLES.entities, TAB_TITLES.organization, TAB_TITLES['audit-log'], TAB_TITLES.billing]).toEqual([
      'Profile',
      'Entities',
      'Organization members',
      'Audit Log',
      'Billing',
    ]);
    expect([TAB_TITLES['firm-management'], TAB_TITLES['firm-team-management']]).toEqual(['Firm Management', 'Team Management']);
  });

  it('resolves the requested tab only when the user has it; otherwise the first', () => {
    const business = settingsTabs({ userType: 'business', inFirm: false, hasWorkspace: true });
    expect(resolveTab('organization', business)).toBe('organization');
    expect(resolveTab('firm-management', business)).toBe('profile');
    expect(resolveTab('nonsense', business)).toBe('profile');
    expect(resolveTab(null, business)).toBe('profile');
    expect(isSettingsTab('audit-log')).toBe(true);
    expect(isSettingsTab('Audit Log')).toBe(false);
  });

  it("choosing a tab keeps unrelated parameters and closes the previous tab's record and filter", () => {
    const next = searchForTab(new URLSearchParams('tab=organization&member=m1&invite=i1&filter=invite&entity=e1&utm=x'), 'entities');
    expect(next.toString()).toBe('tab=entities&utm=x');
  });

  it('opens and closes one record parameter without touching the rest', () => {
    const opened = searchWith(new URLSearchParams('tab=entities'), 'entity', 'w1');
    expect(opened.toString()).toBe('tab=entities&entity=w1');
    expect(searchWith(opened, 'entity', null).toString()).toBe('tab=entities');
    expect(searchWith(opened, 'entity', '').toString()).toBe('tab=entities');
  });
});
