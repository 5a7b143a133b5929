import { withSystem, withTenant, writeEvents, EventType, type Knex } from '@ledgerline/platform';
import type { FirmRole } from '../domain/firm.js';

export interface FirmRow {
  id: string;
  name: string;
  country: string;
  owner_user_id: string;
  created_at: Date;
  updated_at: Date;
}

export interface MemberRow {
  firm_id: string;
  user_id: string;
  role: FirmRole;
  email: string;
  first_name: string;
  middle_name: string;
  last_name: string;
  default_organization_id: string | null;
  joined_at: Date;
}

export interface OrganizationRow {
  firm_id: string;
  organization_id: string;
  name: string;
  added_by_user_id: string | null;
  added_at: Date;
}

export interface AccessRow {
  firm_id: string;
  user_id: string;
  organization_id: string;
  granted_at: Date;
}

export interface InviteRow {
  id: string;
  firm_id: string;
  email: string;
  role: string;
  organization_ids: string[];
  token_hash: Buffer;
  status: 'pending' | 'verified' | 'revoked';
  first_name: string;
  middle_name: string;
  last_name: string;
  invited_by_user_id: string | null;
  accepted_user_id: string | null;
  expires_at: Date;
  created_at: Date;
  updated_at: Date;
}

/** Names the transaction's firm: from here on row-level security shows that firm's rows only. */
export async function actInFirm(trx: Knex.Transaction, firmId: string): Promise<void> {
  await trx.raw("select set_config('app.firm_id', ?, true)", [firmId]);
}

/**
 * Runs `fn` as `userId`: the one membership row row-level security shows them (their own) names their firm,
 * which the transaction then acts in. `member` is undefined for a user outside every firm.
 */
export async function withFirmCaller<T>(db: Knex, userId: string, fn: (trx: Knex.Transaction, member: MemberRow | undefined) => Promise<T>): Promise<T> {
  return withTenant(db, { userId }, async (trx) => {
    const member = await trx<MemberRow>('firm_members').where({ user_id: userId }).first();
    if (member) await actInFirm(trx, member.firm_id);
    return fn(trx, member);
  });
}

/** For the invite link only: a token names its firm, so finding it is cross-firm by nature. */
export const withEveryFirm = <T>(db: Knex, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> => withSystem(db, fn);

export const firms = {
  byId: (trx: Knex.Transaction, id: string) => trx<FirmRow>('firms').where({ id }).first(),
  /**
   * Holds the firm row until the transaction ends: every change of a firm's access takes it before its first
   * write, so the versions it publishes (taken after it) follow the order the changes commit in.
   */
  lockAccess: async (trx: Knex.Transaction, id: string) => {
    await trx('firms').where({ id }).forUpdate().first('id');
  },
  insert: async (trx: Knex.Transaction, row: FirmRow) => {
    await trx<FirmRow>('firms').insert(row);
  },
  update: async (trx: Knex.Transaction, id: string, patch: Partial<FirmRow>) => {
    await trx<FirmRow>('firms').where({ id }).update(patch);
  },
};

export const members = {
  ofFirm: (trx: Knex.Transaction, firmId: string) => trx<MemberRow>('firm_members').where({ firm_id: firmId }).orderBy('joined_at'),
  byUser: (trx: Knex.Transaction, firmId: string, userId: string) => trx<MemberRow>('firm_members').where({ firm_id: firmId, user_id: userId }).first(),
  anyFirmByEmail: (trx: Knex.Transaction, email: string) => trx<MemberRow>('firm_members').where({ email }).first(),
  anyFirmByUser: (trx: Knex.Transaction, userId: string) => trx<MemberRow>('firm_members').where({ user_id: userId }).first(),
  insert: async (trx: Knex.Transaction, row: MemberRow) => {
    await trx<MemberRow>('firm_members').insert(row);
  },
  update: async (trx: Knex.Transaction, firmId: string, userId: string, patch: Partial<MemberRow>) => {
    await trx<MemberRow>('firm_members').where({ firm_id: firmId, user_id: userId }).update(patch);
  },
  remove: async (trx: Knex.Transaction, firmId: string, userId: string) => {
    await trx<MemberRow>('firm_members').where({ firm_id: firmId, user_id: userId }).delete();
  },
  clearDefault: async (trx: Knex.Transaction, firmId: string, organizationId: string) => {
    await trx<MemberRow>('firm_members').where({ firm_id: firmId, default_organization_id: organizationId }).update({ default_organization_id: null });
  },
};

export const organizations = {
  ofFirm: (trx: Knex.Transaction, firmId: string) =>
    trx<OrganizationRow>('firm_organizations')
      .where({ firm_id: firmId })
      .orderBy([{ column: 'added_at' }, { column: 'name' }]),
  byId: (trx: Knex.Transaction, firmId: string, organizationId: string) =>
    trx<OrganizationRow>('firm_organizations').where({ firm_id: firmId, organization_id: organizationId }).first(),
  insert: async (trx: Knex.Transaction, row: OrganizationRow) => {
    await trx<OrganizationRow>('firm_organizations').insert(row);
  },
  remove: async (trx: Knex.Transaction, firmId: string, organizationId: string) => {
    await trx<OrganizationRow>('firm_organizations').where({ firm_id: firmId, organization_id: organizationId }).delete();
  },
};

export const access = {
  ofFirm: (trx: Knex.Transaction, firmId: string) => trx<AccessRow>('firm_member_access').where({ firm_id: firmId }),
  grant: async (trx: Knex.Transaction, rows: AccessRow[]) => {
    if (rows.length > 0) await trx<AccessRow>('firm_member_access').insert(rows).onConflict(['firm_id', 'user_id', 'organization_id']).ignore();
  },
  revoke: async (trx: Knex.Transaction, firmId: string, userId: string, organizationIds: string[]) => {
    await trx<AccessRow>('firm_member_access').where({ firm_id: firmId, user_id: userId }).whereIn('organization_id', organizationIds).delete();
  },
};

export const invites = {
  ofFirm: (trx: Knex.Transaction, firmId: string) => trx<InviteRow>('firm_invites').where({ firm_id: firmId }).orderBy('created_at', 'desc'),
  byId: (trx: Knex.Transaction, firmId: string, id: string) => trx<InviteRow>('firm_invites').where({ firm_id: firmId, id }).first(),
  pendingFor: (trx: Knex.Transaction, firmId: string, email: string) =>
    trx<InviteRow>('firm_invites').where({ firm_id: firmId, email, status: 'pending' }).first(),
  /** Locks the row: two clicks on one link cannot both accept it. */
  byTokenHash: (trx: Knex.Transaction, hash: Buffer) => trx<InviteRow>('firm_invites').where({ token_hash: hash }).forUpdate().first(),
  /** Reads without locking: what the link shows before anything changes. */
  peekByTokenHash: (trx: Knex.Transaction, hash: Buffer) => trx<InviteRow>('firm_invites').where({ token_hash: hash }).first(),
  insert: async (trx: Knex.Transaction, row: Omit<InviteRow, 'status' | 'accepted_user_id'>) => {
    await trx('firm_invites').insert(row);
  },
  update: async (trx: Knex.Transaction, id: string, patch: Partial<InviteRow>) => {
    await trx<InviteRow>('firm_invites').where({ id }).update(patch);
  },
};

/** One member's complete access as published: the organizations and the workspace role each gives. */
export interface AccessStateRow {
  firmId: string;
  userId: string;
  version: bigint;
  organizations: { organizationId: string; role: string }[];
}

export const accessStates = {
  /** The next version of the firm database's access sequence (call under `firms.lockAccess`). */
  nextVersion: async (trx: Knex.Transaction): Promise<bigint> => {
    const r = await trx.raw<{ rows: { v: string }[] }>("select nextval('firm_access_version')::text as v");
    return BigInt(r.rows[0]!.v);
  },
  /**
   * Writes the states as firm.access_changed events in the transaction of the change (RELIABILITY 6). The
   * event's tenant is the firm: the outbox row is written with the firm's id as its workspace_id.
   */
  publish: async (trx: Knex.Transaction, source: string, states: readonly AccessStateRow[]): Promise<void> => {
    if (states.length === 0) return;
    const firmId = states[0]!.firmId;
    await trx.raw("select set_config('app.workspace_id', ?, true)", [firmId]);
    await writeEvents(
      trx,
      source,
      states.map((s) => ({
        type: EventType.FirmAccessChanged,
        workspaceId: s.firmId,
        payload: { firmId: s.firmId, userId: s.userId, version: s.version, organizations: s.organizations },
      })),
    );
  },
};
