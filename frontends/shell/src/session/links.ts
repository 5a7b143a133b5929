// Links into the app that carry a workspace (spec §2 /login-workspace), pure.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface WorkspaceLink {
  workspaceId: string;
  organizationId: string | null;
}

/** The workspace (and optional organization) of a /login-workspace query string; null without a valid workspaceId. */
export function workspaceLink(search: string | URLSearchParams): WorkspaceLink | null {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const workspaceId = (params.get('workspaceId') ?? '').trim();
  if (!UUID.test(workspaceId)) return null;
  const organizationId = (params.get('organizationId') ?? '').trim();
  return { workspaceId: workspaceId.toLowerCase(), organizationId: UUID.test(organizationId) ? organizationId.toLowerCase() : null };
}

/** The /login-workspace link of a workspace, as the app hands it out. */
export function loginWorkspaceHref(workspaceId: string, organizationId?: string): string {
  const params = new URLSearchParams({ workspaceId });
  if (organizationId) params.set('organizationId', organizationId);
  return `/login-workspace?${params.toString()}`;
}
