import { newId, type Knex, type Role } from '@ledgerline/platform';
import type { CodeRow, MembershipRow, ProfileJson, SessionRow, UserRow } from './rows.js';

/** Every query of the identity service. Callers pass the transaction the use case runs in. */
export type Db = Knex | Knex.Transaction;

/** Sets the acting user (and workspace) for row-level security inside a transaction (memberships are per user). */
export async function actAs(trx: Knex.Transaction, userId: string, workspaceId?: string): Promise<void> {
  await trx.raw("select set_config('app.user_id', ?, true), set_config('app.workspace_id', ?, true)", [userId, workspaceId ?? '']);
}

export const users = {
  byEmail: (db: Db, email: string) => db<UserRow>('users').where({ email }).first(),
  byId: (db: Db, id: string) => db<UserRow>('users').where({ id }).first(),
  insert: (
    db: Db,
    row: Pick<UserRow, 'id' | 'email' | 'first_name' | 'middle_name' | 'last_name' | 'password_hash' | 'is_verified' | 'user_type' | 'profile'>,
  ) => db('users').insert({ ...row, profile: row.profile ? JSON.stringify(row.profile) : null }),
  update: (db: Db, id: string, patch: Partial<Omit<UserRow, 'id' | 'profile'>> & { profile?: ProfileJson }) =>
    db('users')
      .where({ id })
      .update({ ...patch, ...(patch.profile ? { profile: JSON.stringify(patch.profile) } : {}), updated_at: db.fn.now() }),
  /** Atomically counts one failure; returns the new consecutive count. */
  recordFailure: async (db: Db, id: string): Promise<number> => {
    await db('login_failures').insert({ user_id: id });
    const [row] = await db('users').where({ id }).increment('consecutive_failures', 1).returning('consecutive_failures');
    return (row as { consecutive_failures: number }).consecutive_failures;
  },
  failuresSince: async (db: Db, id: string, since: Date): Promise<number> => {
    const [row] = await db('login_failures').where('user_id', id).andWhere('at', '>', since).count({ n: '*' });
    return Number((row as { n: string | number }).n);
  },
};

export const oauthIdentities = {
  find: (db: Db, provider: string, subject: string): Promise<{ user_id: string } | undefined> =>
    db('oauth_identities').where({ provider, subject }).first('user_id'),
  link: (db: Db, provider: string, subject: string, userId: string) =>
    db('oauth_identities').insert({ provider, subject, user_id: userId }).onConflict(['provider', 'subject']).ignore(),
};

export const tenancy = {
  /** Creates an organization with its default workspace and makes the user its Owner. */
  async createOrganization(
    db: Db,
    input: { organizationId: string; workspaceId: string; ownerUserId: string; name: string; type: 'business' | 'firm' },
  ): Promise<void> {
    await db('organizations').insert({ id: input.organizationId, name: input.name, owner_user_id: input.ownerUserId, type: input.type });
    await db('workspaces').insert({ id: input.workspaceId, organization_id: input.organizationId, name: input.name, is_default: true });
    await db('memberships').insert({ workspace_id: input.workspaceId, user_id: input.ownerUserId, role: 'Owner' satisfies Role });
  },
  /**
   * The user's workspaces: their memberships, and every workspace of the organizations a firm gave them
   * (docs/decisions/0008-firm-access.md; those made later too). Where both give access, the higher role in
   * the management ranking (Owner > Admin > Accountant > Viewer) wins, a membership on a tie. Defaults first,
   * memberships before grants, then oldest first. Needs app.user_id set (row-level security).
   */
  membershipsOf: async (db: Db, userId: string): Promise<MembershipRow[]> => {
    const rank = (col: string) => `case ${col} when 'Owner' then 4 when 'Admin' then 3 when 'Accountant' then 2 else 1 end`;
    const r = await db.raw(
      `select workspace_id, name, organization_id, organization_name, role, is_default, firm_id from (
         select distinct on (x.workspace_id) x.* from (
           select m.workspace_id, w.name, w.organization_id, o.name as organization_name, m.role, w.is_default, null::uuid as firm_id,
                  m.created_at as since, ${rank('m.role')} as rank, 0 as via
             from memberships m join workspaces w on w.id = m.workspace_id join organizations o on o.id = w.organization_id
            where m.user_id = ?
           union all
           select w.id, w.name, w.organization_id, o.name, g.role, w.is_default, g.firm_id, g.granted_at, ${rank('g.role')}, 1
             from organization_grants g join workspaces w on w.organization_id = g.organization_id join organizations o on o.id = g.organization_id
            where g.user_id = ?
         ) x order by x.workspace_id, x.rank desc, x.via, x.since
       ) y order by y.is_default desc, y.via, y.since, y.workspace_id`,
      [userId, userId],
    );
    return r.rows as MembershipRow[];
  },
  async renameOwnedDefault(db: Db, userId: string, name: string): Promise<void> {
    const orgs = db('organizations').where({ owner_user_id: userId }).select('id');
    await db('organizations').whereIn('id', orgs).update({ name });
    await db('workspaces').whereIn('organization_id', orgs).andWhere({ is_default: true }).update({ name });
  },
};

export const sessions = {
  create: async (
    db: Db,
    input: { userId: string; tokenHash: Buffer; kind: 'pending' | 'active'; idleMs: number; absoluteMs: number; now: Date },
  ): Promise<string> => {
    const id = newId();
    const now = input.now.getTime();
    await db('sessions').insert({
      id,
      user_id: input.userId,
      token_hash: input.tokenHash,
      kind: input.kind,
      created_at: input.now,
      last_seen_at: input.now,
      idle_expires_at: new Date(now + input.idleMs),
      absolute_expires_at: new Date(now + input.absoluteMs),
    });
    return id;
  },
  byTokenHash: (db: Db, tokenHash: Buffer): Promise<SessionRow | undefined> => db('sessions').where({ token_hash: tokenHash }).first(),
  touch: (db: Db, id: string, idleMs: number, now: Date) =>
    db('sessions')
      .where({ id })
      .update({ last_seen_at: now, idle_expires_at: new Date(now.getTime() + idleMs) }),
  revoke: (db: Db, id: string) => db('sessions').where({ id }).whereNull('revoked_at').update({ revoked_at: db.fn.now() }),
  /** Ends every session of a user except `keepId`; returns how many ended. */
  revokeAllOf: (db: Db, userId: string, keepId?: string) =>
    db('sessions')
      .where({ user_id: userId })
      .whereNull('revoked_at')
      .modify((q) => (keepId ? q.whereNot({ id: keepId }) : q))
      .update({ revoked_at: db.fn.now() }),
};

export const codes = {
  create: (db: Db, row: Pick<CodeRow, 'id' | 'session_id' | 'user_id' | 'code_hash' | 'expires_at'>) => db('one_time_codes').insert(row),
  byId: (db: Db, id: string) => db<CodeRow>('one_time_codes').where({ id }).forUpdate().first(),
  ofSession: (db: Db, sessionId: string) => db<CodeRow>('one_time_codes').where({ session_id: sessionId }).orderBy('created_at', 'desc'),
  supersedeOpen: (db: Db, sessionId: string) =>
    db('one_time_codes').where({ session_id: sessionId }).whereNull('consumed_at').whereNull('superseded_at').update({ superseded_at: db.fn.now() }),
  addAttempt: (db: Db, id: string) => db('one_time_codes').where({ id }).increment('attempts', 1),
  consume: (db: Db, id: string) => db('one_time_codes').where({ id }).update({ consumed_at: db.fn.now() }),
};

export const resets = {
  create: (db: Db, row: { id: string; user_id: string; token_hash: Buffer; expires_at: Date }) => db('password_resets').insert(row),
  byTokenHash: (db: Db, tokenHash: Buffer): Promise<{ id: string; user_id: string; expires_at: Date; used_at: Date | null } | undefined> =>
    db('password_resets').where({ token_hash: tokenHash }).forUpdate().first(),
  use: (db: Db, id: string) => db('password_resets').where({ id }).update({ used_at: db.fn.now() }),
  /** A newer link replaces older unused ones. */
  expireOpen: (db: Db, userId: string) => db('password_resets').where({ user_id: userId }).whereNull('used_at').update({ used_at: db.fn.now() }),
};

export const devices = {
  /** Whether this device token was verified by this user and is still trusted at `now`. */
  isTrusted: async (db: Db, userId: string, tokenHash: Buffer, now: Date): Promise<boolean> =>
    Boolean(await db('trusted_devices').where({ user_id: userId, token_hash: tokenHash }).andWhere('expires_at', '>', now).first('id')),
  trust: (db: Db, input: { userId: string; tokenHash: Buffer; now: Date; ttlMs: number }) =>
    db('trusted_devices')
      .insert({
        id: newId(),
        user_id: input.userId,
        token_hash: input.tokenHash,
        verified_at: input.now,
        expires_at: new Date(input.now.getTime() + input.ttlMs),
      })
      .onConflict(['user_id', 'token_hash'])
      .merge(['verified_at', 'expires_at']),
  countTrusted: async (db: Db, userId: string, now: Date): Promise<number> => {
    const [row] = await db('trusted_devices').where({ user_id: userId }).andWhere('expires_at', '>', now).count({ n: '*' });
    return Number((row as { n: string | number }).n);
  },
  forgetAll: (db: Db, userId: string) => db('trusted_devices').where({ user_id: userId }).delete(),
};

export interface ThrottleRow {
  consecutive_failures: number;
  locked_until: Date | null;
}

/** Failed sign-ins per typed address (hashed), whether or not an account has it. */
/** The state of a decoy sign-up challenge (see the identity_decoy_challenges migration). */
export interface DecoyRow {
  method_id: string;
  attempts: number;
  sends: number;
  last_sent_at: Date;
  code_expires_at: Date;
  expires_at: Date;
}

export const decoys = {
  insert: (db: Db, row: DecoyRow & { token_hash: Buffer }) => db('decoy_challenges').insert(row),
  lock: (db: Db, tokenHash: Buffer): Promise<DecoyRow | undefined> =>
    db('decoy_challenges')
      .where({ token_hash: tokenHash })
      .forUpdate()
      .first('method_id', 'attempts', 'sends', 'last_sent_at', 'code_expires_at', 'expires_at'),
  addAttempt: (db: Db, tokenHash: Buffer) => db('decoy_challenges').where({ token_hash: tokenHash }).increment('attempts', 1),
  /** A code sent again: the new one is current, with its own tries and expiry. */
  resend: (db: Db, tokenHash: Buffer, methodId: string, now: Date, codeExpiresAt: Date) =>
    db('decoy_challenges')
      .where({ token_hash: tokenHash })
      .update({ method_id: methodId, attempts: 0, sends: db.raw('sends + 1'), last_sent_at: now, code_expires_at: codeExpiresAt }),
  prune: (db: Db, now: Date, limit = 500) =>
    db.raw('delete from decoy_challenges where token_hash in (select token_hash from decoy_challenges where expires_at < ? limit ?)', [now, limit]),
};

export const throttle = {
  get: (db: Db, emailHash: Buffer): Promise<ThrottleRow | undefined> =>
    db('login_throttle').where({ email_hash: emailHash }).first('consecutive_failures', 'locked_until'),
  failuresSince: async (db: Db, emailHash: Buffer, since: Date): Promise<number> => {
    const [row] = await db('login_throttle_failures').where({ email_hash: emailHash }).andWhere('at', '>', since).count({ n: '*' });
    return Number((row as { n: string | number }).n);
  },
  /** Counts one failure atomically; returns the new consecutive count. */
  recordFailure: async (db: Db, emailHash: Buffer, now: Date): Promise<number> => {
    await db('login_throttle_failures').insert({ email_hash: emailHash, at: now });
    const [row] = await db('login_throttle')
      .insert({ email_hash: emailHash, consecutive_failures: 1, updated_at: now })
      .onConflict('email_hash')
      .merge({ consecutive_failures: db.raw('login_throttle.consecutive_failures + 1'), updated_at: now })
      .returning('consecutive_failures');
    return (row as { consecutive_failures: number }).consecutive_failures;
  },
  /**
   * Forgets failures older than an hour (the longest window read), per-address rows cleared by a success
   * an hour ago, and consecutive counts untouched for a day (an address nobody tried since); never a
   * running lock. At most `limit` rows of each per call: called on every failed login, it keeps pace.
   */
  prune: async (db: Db, now: Date, limit = 200): Promise<void> => {
    const hourAgo = new Date(now.getTime() - 3_600_000);
    const dayAgo = new Date(now.getTime() - 86_400_000);
    await db.raw('delete from login_throttle_failures where id in (select id from login_throttle_failures where at < ? order by at limit ?)', [hourAgo, limit]);
    await db.raw(
      `delete from login_throttle where email_hash in (
         select email_hash from login_throttle
         where (locked_until is null or locked_until < ?) and ((consecutive_failures = 0 and updated_at < ?) or updated_at < ?)
         limit ?)`,
      [now, hourAgo, dayAgo, limit],
    );
  },
  lock: (db: Db, emailHash: Buffer, until: Date) =>
    db('login_throttle').where({ email_hash: emailHash }).update({ locked_until: until, consecutive_failures: 0 }),
  clear: (db: Db, emailHash: Buffer) => db('login_throttle').where({ email_hash: emailHash }).update({ consecutive_failures: 0, locked_until: null }),
};

/** One organization a firm opens to one of its members, with the workspace role it gives. */
export interface FirmGrant {
  organizationId: string;
  role: 'Admin' | 'Accountant';
}

/** Firm access (migration 20261128100000): each firm member's organization grants and the version they came with. */
export const firmGrants = {
  /**
   * Records `version` as the member's newest state when it is newer than the one held, locking their row
   * (concurrent appliers of one member wait for each other); false when a state as new or newer was applied.
   */
  claimVersion: async (db: Db, firmId: string, userId: string, version: bigint, now: Date): Promise<boolean> => {
    const r = await db.raw(
      `insert into firm_access_versions (firm_id, user_id, version, updated_at) values (?, ?, ?, ?)
       on conflict (firm_id, user_id) do update set version = excluded.version, updated_at = excluded.updated_at
       where firm_access_versions.version < excluded.version
       returning version`,
      [firmId, userId, version.toString(), now],
    );
    return r.rows.length > 0;
  },
  versionOf: async (db: Db, firmId: string, userId: string): Promise<bigint> => {
    const row = await db('firm_access_versions').where({ firm_id: firmId, user_id: userId }).first('version');
    return BigInt((row as { version?: string | number } | undefined)?.version ?? 0);
  },
  /** The organizations of `ids` identity has (a grant of an unknown one is dropped). */
  knownOrganizations: async (db: Db, ids: readonly string[]): Promise<Set<string>> => {
    if (ids.length === 0) return new Set();
    const rows = (await db('organizations')
      .whereIn('id', [...ids])
      .select('id')) as { id: string }[];
    return new Set(rows.map((r) => r.id));
  },
  /** The member's grants from this firm (needs app.user_id = the member). */
  ofMember: async (db: Db, firmId: string, userId: string): Promise<FirmGrant[]> => {
    const rows = (await db('organization_grants').where({ firm_id: firmId, user_id: userId }).select('organization_id', 'role')) as {
      organization_id: string;
      role: FirmGrant['role'];
    }[];
    return rows.map((r) => ({ organizationId: r.organization_id, role: r.role }));
  },
  /** The users a firm's grant opens the organization to (needs app.organization_id = it, or a system transaction). */
  holdersOf: async (db: Db, organizationId: string): Promise<string[]> =>
    ((await db('organization_grants').where({ organization_id: organizationId }).distinct('user_id')) as { user_id: string }[]).map((r) => r.user_id),
  /** The workspaces of these organizations. */
  workspacesOf: async (db: Db, organizationIds: readonly string[]): Promise<string[]> => {
    if (organizationIds.length === 0) return [];
    return (
      (await db('workspaces')
        .whereIn('organization_id', [...organizationIds])
        .select('id')) as { id: string }[]
    ).map((r) => r.id);
  },
  /** Makes the member's grants from this firm exactly `grants` (kept ones keep the date they were first given). */
  replace: async (db: Db, firmId: string, userId: string, version: bigint, grants: readonly FirmGrant[], now: Date): Promise<void> => {
    const keep = grants.map((g) => g.organizationId);
    await db('organization_grants')
      .where({ firm_id: firmId, user_id: userId })
      .modify((q) => (keep.length ? q.whereNotIn('organization_id', keep) : q))
      .delete();
    if (grants.length === 0) return;
    await db('organization_grants')
      .insert(
        grants.map((g) => ({
          firm_id: firmId,
          user_id: userId,
          organization_id: g.organizationId,
          role: g.role,
          version: version.toString(),
          granted_at: now,
        })),
      )
      .onConflict(['firm_id', 'user_id', 'organization_id'])
      .merge(['role', 'version']);
  },
};
