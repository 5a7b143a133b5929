import type { User } from '@ledgerline/api';

export interface NavItem {
  label: string;
  to: string;
  /** The path that marks the item active (`to` may carry a query). */
  path: string;
}

/** The accounting-package sync page's route (spec §2 leaves the path open). */
export const ACCOUNTING_SYNC_ROUTE = '/accounting-sync';

const businessNav: readonly NavItem[] = [
  { label: 'Dashboard', to: '/dashboard', path: '/dashboard' },
  { label: 'Expenses', to: '/expenses', path: '/expenses' },
  { label: 'Transactions', to: '/transactions?tab=review', path: '/transactions' },
  { label: 'Revenue', to: '/revenue', path: '/revenue' },
  { label: 'Accounting', to: '/accounting', path: '/accounting' },
  { label: 'Reports', to: '/reports', path: '/reports' },
  { label: 'Accounting Sync', to: ACCOUNTING_SYNC_ROUTE, path: ACCOUNTING_SYNC_ROUTE },
];

const demoNav: readonly NavItem[] = [
  { label: 'Demo View', to: '/dashboard', path: '/dashboard' },
  { label: 'Connect Accounts', to: '/connect-accounts', path: '/connect-accounts' },
];

const firmHomeNav: readonly NavItem[] = [{ label: 'Home', to: '/select-organization', path: '/select-organization' }];

/**
 * Spec §2: business navigation; demo mode shows Demo View and Connect Accounts; a firm user without an organization
 * sees only Home. A firm user working in a client organization keeps Home first, the way back to the client list.
 */
export function navigationFor(user: Pick<User, 'userType'>, state: { isDemoModeActive: boolean; selectedOrganizationId: string | null }): readonly NavItem[] {
  if (user.userType === 'firm' && state.selectedOrganizationId === null) return firmHomeNav;
  if (state.isDemoModeActive) return demoNav;
  return user.userType === 'firm' ? [...firmHomeNav, ...businessNav] : businessNav;
}
