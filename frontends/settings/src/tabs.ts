// Which settings tabs a user sees and how the choice lives in the URL (spec platform-core §2, documents §2).
import type { UserType } from '@ledgerline/api';

/** Tab query values exactly as the spec names them, plus this product's security tab. */
export type SettingsTab = 'profile' | 'entities' | 'organization' | 'audit-log' | 'billing' | 'firm-management' | 'firm-team-management' | 'security';

/** Business settings titles and firm settings titles (documents §2). */
export const TAB_TITLES: Readonly<Record<SettingsTab, string>> = {
  profile: 'Profile',
  entities: 'Entities',
  organization: 'Organization members',
  'audit-log': 'Audit Log',
  billing: 'Billing',
  'firm-management': 'Firm Management',
  'firm-team-management': 'Team Management',
  security: 'Security',
};

const BUSINESS_TABS: readonly SettingsTab[] = ['profile', 'entities', 'organization', 'audit-log', 'billing'];
const FIRM_TABS: readonly SettingsTab[] = ['firm-management', 'firm-team-management'];

/**
 * The tabs in order. A business user: the business settings tabs, then the firm's when they also belong to a
 * firm (they created one, or accepted a firm invite). A firm user: the firm profile area (profile, firm
 * management, team management), and the business tabs of the client workspace they have selected, if any.
 * Security comes last for everyone.
 */
export function settingsTabs(input: { userType: UserType | undefined; inFirm: boolean; hasWorkspace: boolean }): SettingsTab[] {
  if (input.userType === 'firm') {
    const client = input.hasWorkspace ? BUSINESS_TABS.filter((t) => t !== 'profile') : [];
    return ['profile', ...FIRM_TABS, ...client, 'security'];
  }
  return [...BUSINESS_TABS, ...(input.inFirm ? FIRM_TABS : []), 'security'];
}

const ALL_TABS = Object.keys(TAB_TITLES) as SettingsTab[];
export const isSettingsTab = (value: string | null): value is SettingsTab => value !== null && (ALL_TABS as string[]).includes(value);

/** The tab to show: the requested one when the user has it, else the first (profile). */
export function resolveTab(requested: string | null, tabs: readonly SettingsTab[]): SettingsTab {
  return isSettingsTab(requested) && tabs.includes(requested) ? requested : (tabs[0] ?? 'profile');
}

/** Which query parameters belong to one tab: a record opened in one tab is closed when another is chosen. */
const RECORD_PARAMS = ['entity', 'member', 'invite', 'filter'] as const;
export type RecordParam = (typeof RECORD_PARAMS)[number];

/** The search after choosing `tab`: the tab set, the previous tab's open record and filter dropped. */
export function searchForTab(current: URLSearchParams, tab: SettingsTab): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const key of RECORD_PARAMS) next.delete(key);
  next.set('tab', tab);
  return next;
}

/** The search with one record parameter set (opening a record) or removed (null: closing it). */
export function searchWith(current: URLSearchParams, key: RecordParam, value: string | null): URLSearchParams {
  const next = new URLSearchParams(current);
  if (value === null || value === '') next.delete(key);
  else next.set(key, value);
  return next;
}
