import type { Knex } from '@ledgerline/platform';

/**
 * The workspace's members (decision 0036): kept from identity's member.changed (name, email, role, removed, version)
 * and from the users the gateway let act in the workspace (identity vouched for their membership at that moment).
 * A current member has no `removed_at`; a removed one stays, so what they wrote still shows their name.
 */
export interface MemberRow {
  user_id: string;
  name: string;
  email: string;
  /** null: not a member any more (still named on their earlier comments and receipts). */
  removed_at: Date | null;
}

const COLUMNS = ['user_id', 'name', 'email', 'removed_at'] as const;

/** One member.changed: the pair's whole state, applied when newer than the one held (version 0: events from before versions, in arrival order). */
export interface MemberChange {
  workspaceId: string;
  userId: string;
  role: string;
  removed: boolean;
  name: string;
  email: string;
  version: bigint;
}

/** Applies a member.changed; answers whether it changed the row (false: an older state than the one held). */
export async function applyMemberChange(trx: Knex.Transaction, c: MemberChange): Promise<boolean> {
  const r = await trx.raw(
    `insert into workspace_members (workspace_id, user_id, name, email, role, removed_at, version, updated_at)
     values (?, ?, ?, ?, nullif(?, ''), case when ? then now() end, ?, now())
     on conflict (workspace_id, user_id) do update set
       name = case when excluded.name = '' then workspace_members.name else excluded.name end,
       email = case when excluded.email = '' then workspace_members.email else excluded.email end,
       role = excluded.role,
       removed_at = case when excluded.removed_at is null then null else coalesce(workspace_members.removed_at, excluded.removed_at) end,
       version = excluded.version,
       updated_at = now()
     where workspace_members.version < excluded.version or (excluded.version = 0 and workspace_members.version = 0)
     returning user_id`,
    [c.workspaceId, c.userId, c.name, c.email, c.role, c.removed, c.version.toString()],
  );
  return r.rows.length > 0;
}

/**
 * Records that a user acted in the workspace (the gateway let them in: a member now). A user identity has not told
 * of yet is added as a member with the name the gateway gave; identity's state, once held, is not changed here (a
 * removal stays a removal whatever request was in flight).
 */
export async function rememberMember(
  trx: Knex.Transaction,
  workspaceId: string,
  userId: string,
  actor: { name: string; email: string } | undefined,
): Promise<void> {
  await trx.raw(
    `insert into workspace_members (workspace_id, user_id, name, email) values (?, ?, ?, ?)
     on conflict (workspace_id, user_id) do update set last_seen_at = now(),
       name = case when excluded.name = '' or workspace_members.version > 0 then workspace_members.name else excluded.name end,
       email = case when excluded.email = '' or workspace_members.version > 0 then workspace_members.email else excluded.email end`,
    [workspaceId, userId, actor?.name ?? '', actor?.email ?? ''],
  );
}

/** The workspace's current members by name (with `includeFormer`, the removed ones too), as row-level security shows them. */
export async function membersOf(trx: Knex.Transaction, includeFormer = false): Promise<MemberRow[]> {
  return (await trx('workspace_members')
    .select(...COLUMNS)
    .modify((q) => (includeFormer ? q : q.whereNull('removed_at')))
    .orderByRaw("lower(coalesce(nullif(name, ''), email)), user_id")) as MemberRow[];
}

/** These users' rows (current and former). */
export async function membersByIds(trx: Knex.Transaction, ids: readonly string[]): Promise<MemberRow[]> {
  if (ids.length === 0) return [];
  return (await trx('workspace_members')
    .select(...COLUMNS)
    .whereIn('user_id', [...ids])) as MemberRow[];
}
