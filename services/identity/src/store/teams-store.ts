import type { Knex, Role } from '@ledgerline/platform';
import type { Db } from './identity-store.js';

/** Queries of the team screens: workspaces of an organization, their members, invites. */

export interface OrganizationRow {
  id: string;
  name: string;
  owner_user_id: string;
  type: 'business' | 'firm';
  created_at: Date;
}

export interface WorkspaceRow {
  id: string;
  organization_id: string;
  name: string;
  is_default: boolean;
  address: string;
  email: string;
  bank_name: string;
  account_number: string;
  bank_address: string;
  account_type: string;
  max_team_size: number | null;
  created_at: Date;
}

export interface OrgMembershipRow {
  workspace_id: string;
  user_id: string;
  role: Role;
  created_at: Date;
  email: string;
  first_name: string;
  middle_name: string;
  last_name: string;
}

export type InviteStatus = 'pending' | 'verified' | 'revoked';

export interface InviteRow {
  id: string;
  organization_id: string;
  email: string;
  role: Exclude<Role, 'Owner'>;
  first_name: string;
  middle_name: string;
  last_name: string;
  workspace_ids: string[];
  token_hash: Buffer;
  status: InviteStatus;
  invited_by_user_id: string | null;
  accepted_user_id: string | null;
  expires_at: Date;
  created_at: Date;
  updated_at: Date;
}

export type WorkspaceDetails = Partial<
  Pick<WorkspaceRow, 'name' | 'address' | 'email' | 'bank_name' | 'account_number' | 'bank_address' | 'account_type' | 'max_team_size'>
>;

/**
 * Lets the transaction see the memberships of every workspace of one organization (row-level security,
 * migration 20261127180000). Only after the caller's own membership in it was checked.
 */
export async function actInOrganization(trx: Knex.Transaction, organizationId: string): Promise<void> {
  await trx.raw("select set_config('app.organization_id', ?, true)", [organizationId]);
}

export const organizations = {
  byId: (db: Db, id: string): Promise<OrganizationRow | undefined> => db('organizations').where({ id }).first(),
};

export const workspaces = {
  /** The organization's workspaces: the default first, then by creation. */
  ofOrganization: (db: Db, organizationId: string): Promise<WorkspaceRow[]> =>
    db('workspaces')
      .where({ organization_id: organizationId })
      .orderBy([
        { column: 'is_default', order: 'desc' },
        { column: 'created_at', order: 'asc' },
        { column: 'id', order: 'asc' },
      ]),
  byId: (db: Db, id: string): Promise<WorkspaceRow | undefined> => db('workspaces').where({ id }).first(),
  /** Locks the organization's workspaces (create, delete and default changes are serialised per organization). */
  lockOrganization: (db: Db, organizationId: string) => db('organizations').where({ id: organizationId }).forUpdate().first('id'),
  insert: (db: Db, row: { id: string; organization_id: string; name: string; is_default: boolean; created_at: Date }) => db('workspaces').insert(row),
  update: (db: Db, id: string, patch: WorkspaceDetails) => (Object.keys(patch).length ? db('workspaces').where({ id }).update(patch) : Promise.resolve(0)),
  makeDefault: async (db: Db, organizationId: string, id: string): Promise<void> => {
    await db('workspaces').where({ organization_id: organizationId, is_default: true }).whereNot({ id }).update({ is_default: false });
    await db('workspaces').where({ id }).update({ is_default: true });
  },
  delete: (db: Db, id: string) => db('workspaces').where({ id }).delete(),
};

export const members = {
  /** Every membership in the organization's workspaces, with the member's names (needs actInOrganization). */
  ofOrganization: (db: Db, organizationId: string): Promise<OrgMembershipRow[]> =>
    db('memberships as m')
      .join('workspaces as w', 'w.id', 'm.workspace_id')
      .join('users as u', 'u.id', 'm.user_id')
      .where('w.organization_id', organizationId)
      .orderBy([
        { column: 'm.created_at', order: 'asc' },
        { column: 'm.user_id', order: 'asc' },
      ])
      .select('m.workspace_id', 'm.user_id', 'm.role', 'm.created_at', 'u.email', 'u.first_name', 'u.middle_name', 'u.last_name'),
  /** The organizations a user belongs to, with the date they joined each (their first membership there). */
  organizationsOf: async (db: Db, userIds: readonly string[]): Promise<{ user_id: string; id: string; name: string; joined: Date }[]> => {
    if (userIds.length === 0) return [];
    const rows = await db.raw(
      `select m.user_id, o.id, o.name, min(m.created_at) as joined
         from memberships m join workspaces w on w.id = m.workspace_id join organizations o on o.id = w.organization_id
        where m.user_id = any(?::uuid[]) group by m.user_id, o.id, o.name order by joined`,
      [[...userIds]],
    );
    return rows.rows as { user_id: string; id: string; name: string; joined: Date }[];
  },
  upsert: (db: Db, row: { workspace_id: string; user_id: string; role: Role; created_at: Date }) =>
    db('memberships').insert(row).onConflict(['workspace_id', 'user_id']).merge(['role']),
  /** Adds a membership unless the user already has one there (an existing role stays); answers whether it was added. */
  addIfMissing: async (db: Db, row: { workspace_id: string; user_id: string; role: Role; created_at: Date }): Promise<boolean> =>
    (await db('memberships').insert(row).onConflict(['workspace_id', 'user_id']).ignore().returning('workspace_id')).length > 0,
  removeFrom: (db: Db, userId: string, workspaceIds: readonly string[]) =>
    db('memberships')
      .where({ user_id: userId })
      .whereIn('workspace_id', [...workspaceIds])
      .delete(),
};

export const invites = {
  ofOrganization: (db: Db, organizationId: string): Promise<InviteRow[]> =>
    db('invites')
      .where({ organization_id: organizationId })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'asc' },
      ]),
  byId: (db: Db, organizationId: string, id: string): Promise<InviteRow | undefined> =>
    db('invites').where({ organization_id: organizationId, id }).forUpdate().first(),
  byTokenHash: (db: Db, tokenHash: Buffer): Promise<InviteRow | undefined> => db('invites').where({ token_hash: tokenHash }).forUpdate().first(),
  /** The same lookup without a lock (a cheap first check). */
  peekByTokenHash: (db: Db, tokenHash: Buffer): Promise<InviteRow | undefined> => db('invites').where({ token_hash: tokenHash }).first(),
  pendingFor: (db: Db, organizationId: string, email: string): Promise<InviteRow | undefined> =>
    db('invites').where({ organization_id: organizationId, email, status: 'pending' }).forUpdate().first(),
  insert: (db: Db, row: Omit<InviteRow, 'updated_at' | 'accepted_user_id' | 'status'>) =>
    db('invites').insert({ ...row, status: 'pending', updated_at: row.created_at }),
  update: (db: Db, id: string, patch: Partial<Omit<InviteRow, 'id' | 'organization_id'>>) => db('invites').where({ id }).update(patch),
  /** A deleted workspace leaves the invites that named it. */
  dropWorkspace: (db: Db, organizationId: string, workspaceId: string) =>
    db.raw("update invites set workspace_ids = array_remove(workspace_ids, ?::uuid) where organization_id = ? and status = 'pending'", [
      workspaceId,
      organizationId,
    ]),
};
