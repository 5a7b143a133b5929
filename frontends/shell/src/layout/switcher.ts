// The workspace switcher's state, pure (test/switcher.test.ts): what it lists for a search, and where the
// keyboard's active option moves.
import type { Workspace } from '@ledgerline/api';
import { organizationsOf, type OrganizationGroup } from '../session/selection';

/** From this many workspaces the switcher shows a search field. */
export const SWITCHER_SEARCH_FROM = 7;

export const showsSearch = (workspaces: readonly Workspace[]): boolean => workspaces.length >= SWITCHER_SEARCH_FROM;

/**
 * The groups to list for `search`: a case-insensitive contains match (spec §5) on the workspace's name, or on its
 * organization's name (which lists all of that organization's workspaces). Empty groups are left out.
 */
export function switcherGroups(workspaces: readonly Workspace[], search: string): OrganizationGroup[] {
  const needle = search.trim().toLowerCase();
  const groups = organizationsOf(workspaces);
  if (needle === '') return groups;
  return groups
    .map((group) =>
      group.name.toLowerCase().includes(needle) ? group : { ...group, workspaces: group.workspaces.filter((w) => w.name.toLowerCase().includes(needle)) },
    )
    .filter((group) => group.workspaces.length > 0);
}

/** The workspaces as listed (group by group), the order the arrow keys walk. */
export const listedIds = (groups: readonly OrganizationGroup[]): string[] => groups.flatMap((g) => g.workspaces.map((w) => w.id));

export type SwitcherKey = 'ArrowDown' | 'ArrowUp' | 'Home' | 'End';

export const isSwitcherKey = (key: string): key is SwitcherKey => key === 'ArrowDown' || key === 'ArrowUp' || key === 'Home' || key === 'End';

/** The active option after a key; arrows wrap around, nothing active yet starts at the first (or last, going up). */
export function moveActive(ids: readonly string[], active: string | null, key: SwitcherKey): string | null {
  if (ids.length === 0) return null;
  const last = ids.length - 1;
  if (key === 'Home') return ids[0] ?? null;
  if (key === 'End') return ids[last] ?? null;
  const index = active === null ? -1 : ids.indexOf(active);
  if (index === -1) return (key === 'ArrowDown' ? ids[0] : ids[last]) ?? null;
  const next = key === 'ArrowDown' ? (index + 1) % ids.length : (index - 1 + ids.length) % ids.length;
  return ids[next] ?? null;
}

/** The active option when the list opens or the search changes: the current workspace if listed, else the first. */
export function initialActive(ids: readonly string[], current: string | null): string | null {
  return current !== null && ids.includes(current) ? current : (ids[0] ?? null);
}

/**
 * Where the user lands after switching: the same area (its first path segment) with only its `tab` kept — an id in
 * the path or the query (a transaction, a bill, a ledger account) belongs to the previous workspace. From
 * /select-organization (or an unknown place) the dashboard.
 */
export function pathAfterSwitch(pathname: string, search: string): string {
  const area = pathname.split('/').filter(Boolean)[0];
  if (area === undefined || area === 'select-organization') return '/dashboard';
  const tab = new URLSearchParams(search).get('tab');
  return tab ? `/${area}?${new URLSearchParams({ tab }).toString()}` : `/${area}`;
}
