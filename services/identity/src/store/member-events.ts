import { EventType, writeEvents, type Knex, type OutgoingEvent } from '@ledgerline/platform';

/** The events' source (the service's name, as the use cases write it). */
const SOURCE_NAME = 'identity';

/**
 * member.changed (decision 0036): one place says what the event of a user and a workspace holds — the pair's
 * whole state when it is written (the user's role there through a membership or a firm's grant of the workspace's
 * organization, the higher one winning as `tenancy.membershipsOf` ranks them; removed when neither gives access),
 * the user's name and email, and a version from one sequence. Every change of access and every change of a
 * user's name writes it through here, in the change's transaction.
 */

/** The name people read: first and last name (the middle name stays out, as the comment author's does). */
export const displayName = (u: { first_name: string; last_name: string }): string => [u.first_name, u.last_name].filter((s) => s.trim() !== '').join(' ');

const RANK = (col: string) => `case ${col} when 'Owner' then 4 when 'Admin' then 3 when 'Accountant' then 2 else 1 end`;

/** The roles `userId` has in `workspaceIds` (a workspace without access is absent). Needs app.user_id = userId. */
async function rolesOf(db: Knex.Transaction, userId: string, workspaceIds: readonly string[]): Promise<Map<string, string>> {
  const r = await db.raw(
    `select distinct on (x.workspace_id) x.workspace_id, x.role from (
       select m.workspace_id, m.role, ${RANK('m.role')} as rank, 0 as via, m.created_at as since
         from memberships m where m.user_id = ? and m.workspace_id = any(?::uuid[])
       union all
       select w.id, g.role, ${RANK('g.role')}, 1, g.granted_at
         from organization_grants g join workspaces w on w.organization_id = g.organization_id
        where g.user_id = ? and w.id = any(?::uuid[])
     ) x order by x.workspace_id, x.rank desc, x.via, x.since`,
    [userId, [...workspaceIds], userId, [...workspaceIds]],
  );
  return new Map((r.rows as { workspace_id: string; role: string }[]).map((row) => [row.workspace_id, row.role]));
}

/** The transaction's row-level-security settings, to put back after acting as someone else. */
async function settings(trx: Knex.Transaction): Promise<{ user: string; workspace: string }> {
  const r = await trx.raw("select coalesce(current_setting('app.user_id', true), '') as u, coalesce(current_setting('app.workspace_id', true), '') as w");
  const row = r.rows[0] as { u: string; w: string };
  return { user: row.u, workspace: row.w };
}

async function setActing(trx: Knex.Transaction, userId: string, workspaceId: string): Promise<void> {
  await trx.raw("select set_config('app.user_id', ?, true), set_config('app.workspace_id', ?, true)", [userId, workspaceId]);
}

/**
 * Writes one member.changed per workspace of `workspaceIds` for `userId`, each with the pair's state now. Locks
 * the user's row first: two transactions writing events of one user take their versions in commit order. Puts the
 * transaction's acting user and workspace back as they were.
 */
export async function writeMemberEvents(trx: Knex.Transaction, userId: string, workspaceIds: readonly string[]): Promise<void> {
  const ids = [...new Set(workspaceIds)];
  if (ids.length === 0) return;
  const before = await settings(trx);
  try {
    // The user's own memberships and grants are visible to them (row-level security by user).
    await setActing(trx, userId, '');
    const user = (await trx('users').where({ id: userId }).forUpdate().first('first_name', 'last_name', 'email')) as
      { first_name: string; last_name: string; email: string } | undefined;
    const roles = await rolesOf(trx, userId, ids);
    const versions = (await trx.raw('select nextval(?) as v from generate_series(1, ?)', ['member_event_version', ids.length])).rows as { v: string }[];
    for (const [i, workspaceId] of ids.entries()) {
      const role = roles.get(workspaceId) ?? '';
      const event: OutgoingEvent<typeof EventType.MemberChanged> = {
        type: EventType.MemberChanged,
        workspaceId,
        payload: {
          workspaceId,
          userId,
          role,
          removed: role === '',
          name: user ? displayName(user) : '',
          email: user?.email ?? '',
          version: BigInt(versions[i]!.v),
        },
      };
      // The outbox row belongs to the event's workspace (row-level security).
      await setActing(trx, userId, workspaceId);
      await writeEvents(trx, SOURCE_NAME, [event]);
    }
  } finally {
    await setActing(trx, before.user, before.workspace);
  }
}

/**
 * Writes one invite.accepted per workspace joined (decision 0040: the inviter is told), each outbox row in its
 * workspace (row-level security) acting as the user who joined; puts the transaction's acting user and workspace back.
 */
export async function writeInviteAcceptedEvents(
  trx: Knex.Transaction,
  workspaceIds: readonly string[],
  payload: { inviteId: string; invitedByUserId: string; userId: string; userName: string; email: string; role: string },
): Promise<void> {
  if (workspaceIds.length === 0) return;
  const before = await settings(trx);
  try {
    for (const workspaceId of new Set(workspaceIds)) {
      await setActing(trx, payload.userId, workspaceId);
      await writeEvents(trx, SOURCE_NAME, [{ type: EventType.InviteAccepted, workspaceId, payload }]);
    }
  } finally {
    await setActing(trx, before.user, before.workspace);
  }
}

/** The workspaces a user reaches (memberships and firm grants). Needs app.user_id = userId or a system transaction. */
export async function workspacesOfUser(trx: Knex.Transaction, userId: string): Promise<string[]> {
  const r = await trx.raw(
    `select workspace_id from memberships where user_id = ?
     union
     select w.id from organization_grants g join workspaces w on w.organization_id = g.organization_id where g.user_id = ?`,
    [userId, userId],
  );
  return (r.rows as { workspace_id: string }[]).map((x) => x.workspace_id);
}

/**
 * The backfill of a deploy that adds member.changed's name and email (migration 20261215100000): one event for
 * every user and workspace with access now, in one system transaction of the migration. The consumers keep the
 * newest version of each pair, so running it again only repeats the same state.
 */
export async function writeEveryMemberEvent(trx: Knex.Transaction): Promise<number> {
  const r = await trx.raw(
    `select x.workspace_id, x.user_id, x.role, u.first_name, u.last_name, u.email, nextval('member_event_version') as version from (
       select distinct on (workspace_id, user_id) workspace_id, user_id, role from (
         select m.workspace_id, m.user_id, m.role, ${RANK('m.role')} as rank, 0 as via, m.created_at as since from memberships m
         union all
         select w.id, g.user_id, g.role, ${RANK('g.role')}, 1, g.granted_at
           from organization_grants g join workspaces w on w.organization_id = g.organization_id
       ) a order by workspace_id, user_id, rank desc, via, since
     ) x join users u on u.id = x.user_id
     order by x.workspace_id, x.user_id`,
  );
  const rows = r.rows as { workspace_id: string; user_id: string; role: string; first_name: string; last_name: string; email: string; version: string }[];
  await writeEvents(
    trx,
    SOURCE_NAME,
    rows.map((row) => ({
      type: EventType.MemberChanged,
      workspaceId: row.workspace_id,
      payload: {
        workspaceId: row.workspace_id,
        userId: row.user_id,
        role: row.role,
        removed: false,
        name: displayName(row),
        email: row.email,
        version: BigInt(row.version),
      },
    })),
  );
  return rows.length;
}
