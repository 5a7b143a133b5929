// Which organization and workspace the user works in (spec platform-core §3 selectedWorkspaceId and
// selectedOrganizationId, §4 selection rules). Pure: the store, the switcher, /select-organization and
// /login-workspace all decide through these functions, and test/selection.test.ts checks each rule.
import type { User, Workspace } from '@ledgerline/api';

export interface Selection {
  workspaceId: string | null;
  organizationId: string | null;
}

export const NO_SELECTION: Selection = { workspaceId: null, organizationId: null };

export interface OrganizationGroup {
  id: string;
  name: string;
  /** In the order the server lists them (that order decides "the first" of spec §4). */
  workspaces: Workspace[];
}

/** The user's workspaces grouped by organization; organizations by name, each once. */
export function organizationsOf(workspaces: readonly Workspace[]): OrganizationGroup[] {
  const groups = new Map<string, OrganizationGroup>();
  for (const workspace of workspaces) {
    const group = groups.get(workspace.organizationId);
    if (group) group.workspaces.push(workspace);
    else groups.set(workspace.organizationId, { id: workspace.organizationId, name: workspace.organizationName, workspaces: [workspace] });
  }
  return [...groups.values()].sort((a, b) => a.name.localeCompare(b.name, 'en-US', { sensitivity: 'base' }) || a.id.localeCompare(b.id));
}

/** Spec §4: an organization's default workspace, else its first; null when the user has none in it. */
export function defaultWorkspaceIn(workspaces: readonly Workspace[], organizationId: string): Workspace | null {
  const mine = workspaces.filter((w) => w.organizationId === organizationId);
  return mine.find((w) => w.isDefault) ?? mine[0] ?? null;
}

const selectionOf = (workspace: Workspace | null): Selection =>
  workspace ? { workspaceId: workspace.id, organizationId: workspace.organizationId } : NO_SELECTION;

/**
 * The selection after the user's workspaces are (re)loaded, by spec §4, first rule that applies:
 * 1. the selected workspace, while the user is still a member of it;
 * 2. it is gone (deleted, access removed) but its organization is still the user's: that organization's default
 *    workspace, else its first;
 * 3. exactly one organization: it and its default (else first) workspace;
 * 4. a firm user with several organizations (or none) chooses on /select-organization: nothing selected;
 * 5. a business user: the workspace the server answered as current (their default), else the default, else the first.
 */
export function resolveSelection(user: Pick<User, 'userType' | 'workspace' | 'workspaces'>, current: Selection): Selection {
  const { workspaces } = user;
  const selected = current.workspaceId === null ? undefined : workspaces.find((w) => w.id === current.workspaceId);
  if (selected) return selectionOf(selected);
  if (current.organizationId !== null) {
    const fallback = defaultWorkspaceIn(workspaces, current.organizationId);
    if (fallback) return selectionOf(fallback);
  }
  const organizations = organizationsOf(workspaces);
  if (organizations.length === 1 && organizations[0]) return selectionOf(defaultWorkspaceIn(workspaces, organizations[0].id));
  if (user.userType === 'firm') return NO_SELECTION;
  const current_ = user.workspace ? workspaces.find((w) => w.id === user.workspace?.id) : undefined;
  return selectionOf(current_ ?? workspaces.find((w) => w.isDefault) ?? workspaces[0] ?? null);
}

/** Choosing a workspace (the switcher, /login-workspace): null when the user is not a member of it. */
export function selectWorkspace(workspaces: readonly Workspace[], workspaceId: string): Selection | null {
  const workspace = workspaces.find((w) => w.id.toLowerCase() === workspaceId.toLowerCase());
  return workspace ? selectionOf(workspace) : null;
}

/**
 * Choosing an organization (/select-organization): it and its default (else first) workspace. `fallbackWorkspaceIds`
 * are the organization's workspaces as another answer lists them (the firm's), used when the user's own list has
 * not caught up yet. Null when the user has no workspace in it.
 */
export function selectOrganization(workspaces: readonly Workspace[], organizationId: string, fallbackWorkspaceIds: readonly string[] = []): Selection | null {
  const workspace = defaultWorkspaceIn(workspaces, organizationId);
  if (workspace) return selectionOf(workspace);
  const first = fallbackWorkspaceIds[0];
  return first === undefined ? null : { workspaceId: first, organizationId };
}

export const sameSelection = (a: Selection, b: Selection): boolean => a.workspaceId === b.workspaceId && a.organizationId === b.organizationId;
