import { newId, type Knex } from '@ledgerline/platform';
import type { NewNotification, NotificationData, NotificationType, NotificationView } from '../domain/notifications.js';

interface NotificationRow {
  id: string;
  workspace_id: string;
  user_id: string;
  type: NotificationType;
  message: string;
  redirect_url: string;
  data: NotificationData;
  read_at: Date | null;
  created_at: Date;
}

export interface MemberRow {
  workspace_id: string;
  user_id: string;
  role: string;
  removed: boolean;
  name: string;
  email: string;
  version: string;
}

export interface Preferences {
  emailCommentTagged: boolean;
  emailReconnectRequired: boolean;
}

const view = (r: NotificationRow): NotificationView => ({
  id: r.id,
  type: r.type,
  message: r.message,
  redirectUrl: r.redirect_url,
  isRead: r.read_at !== null,
  created: r.created_at,
  data: r.data ?? {},
});

/** Every query below runs in a tenant transaction: row-level security holds it to the workspace; the user is a filter. */
export const notificationsStore = {
  /** Stores what is new (a source already stored for the user is skipped); answers the rows stored. */
  async insert(trx: Knex.Transaction, workspaceId: string, items: readonly NewNotification[]): Promise<{ id: string; item: NewNotification }[]> {
    if (items.length === 0) return [];
    const rows = items.map((n) => ({
      id: newId(),
      workspace_id: workspaceId,
      user_id: n.userId,
      type: n.type,
      message: n.message,
      redirect_url: n.redirectUrl,
      data: JSON.stringify(n.data),
      source_key: n.sourceKey,
    }));
    const stored: { id: string }[] = await trx('notifications').insert(rows).onConflict(['workspace_id', 'user_id', 'source_key']).ignore().returning('id');
    const ids = new Set(stored.map((s) => s.id));
    return rows.flatMap((r, i) => (ids.has(r.id) ? [{ id: r.id, item: items[i] as NewNotification }] : []));
  },

  async page(
    trx: Knex.Transaction,
    userId: string,
    filter: { isRead?: boolean; page: number; take: number },
  ): Promise<{ rows: NotificationView[]; total: number }> {
    const base = trx<NotificationRow>('notifications').where({ user_id: userId });
    if (filter.isRead === true) base.whereNotNull('read_at');
    if (filter.isRead === false) base.whereNull('read_at');
    const [{ count }] = (await base.clone().count({ count: '*' })) as [{ count: string }];
    const rows = (await base
      .clone()
      .select('*')
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(filter.take)
      .offset((filter.page - 1) * filter.take)) as NotificationRow[];
    return { rows: rows.map(view), total: Number(count) };
  },

  async counts(trx: Knex.Transaction, userId: string): Promise<{ unread: number; read: number }> {
    const row = (await trx('notifications')
      .where({ user_id: userId })
      .select(trx.raw('count(*) filter (where read_at is null)::int as unread'), trx.raw('count(*) filter (where read_at is not null)::int as read'))
      .first()) as { unread: number; read: number };
    return { unread: row.unread, read: row.read };
  },

  async byId(trx: Knex.Transaction, userId: string, id: string): Promise<NotificationView | undefined> {
    const row = (await trx<NotificationRow>('notifications').where({ id, user_id: userId }).first()) as NotificationRow | undefined;
    return row ? view(row) : undefined;
  },

  /** How many of `ids` are the user's (in this workspace). */
  async countOwned(trx: Knex.Transaction, userId: string, ids: readonly string[]): Promise<number> {
    const [{ count }] = (await trx('notifications').where({ user_id: userId }).whereIn('id', ids).count({ count: '*' })) as [{ count: string }];
    return Number(count);
  },

  /** Marks read those of `ids` (all the user's unread ones when `ids` is undefined); answers how many changed. */
  async markRead(trx: Knex.Transaction, userId: string, ids: readonly string[] | undefined): Promise<number> {
    const q = trx('notifications').where({ user_id: userId }).whereNull('read_at');
    if (ids) q.whereIn('id', ids);
    return q.update({ read_at: trx.fn.now() });
  },
};

export const membersStore = {
  /** Keeps the newest state of a (workspace, user) pair: an older version arriving late changes nothing. */
  async apply(trx: Knex.Transaction, m: { workspaceId: string; userId: string; role: string; removed: boolean; name: string; email: string; version: bigint }) {
    await trx.raw(
      `insert into notification_members (workspace_id, user_id, role, removed, name, email, version) values (?, ?, ?, ?, ?, ?, ?)
       on conflict (workspace_id, user_id) do update set role = excluded.role, removed = excluded.removed, name = excluded.name,
         email = excluded.email, version = excluded.version
       where notification_members.version <= excluded.version`,
      [m.workspaceId, m.userId, m.removed ? '' : m.role, m.removed, m.name, m.email, m.version.toString()],
    );
  },

  /** Current members of the workspace (all, or those with one of `roles`). */
  current: (trx: Knex.Transaction, roles?: ReadonlySet<string>) =>
    trx<MemberRow>('notification_members')
      .where({ removed: false })
      .modify((q) => {
        if (roles) q.whereIn('role', [...roles]);
      })
      .orderBy('user_id') as Promise<MemberRow[]>,

  byIds: (trx: Knex.Transaction, userIds: readonly string[]) => trx<MemberRow>('notification_members').whereIn('user_id', userIds) as Promise<MemberRow[]>,
};

export const preferencesStore = {
  async of(trx: Knex.Transaction, userIds: readonly string[]): Promise<Map<string, Preferences>> {
    const rows = (await trx('notification_preferences').whereIn('user_id', userIds)) as {
      user_id: string;
      email_comment_tagged: boolean;
      email_reconnect_required: boolean;
    }[];
    return new Map(rows.map((r) => [r.user_id, { emailCommentTagged: r.email_comment_tagged, emailReconnectRequired: r.email_reconnect_required }]));
  },

  async upsert(trx: Knex.Transaction, workspaceId: string, userId: string, patch: Partial<Preferences>): Promise<void> {
    const set: Record<string, unknown> = { updated_at: trx.fn.now() };
    if (patch.emailCommentTagged !== undefined) set.email_comment_tagged = patch.emailCommentTagged;
    if (patch.emailReconnectRequired !== undefined) set.email_reconnect_required = patch.emailReconnectRequired;
    await trx('notification_preferences')
      .insert({ workspace_id: workspaceId, user_id: userId, ...set })
      .onConflict(['workspace_id', 'user_id'])
      .merge(set);
  },
};

export const bankAccountsStore = {
  async named(trx: Knex.Transaction, workspaceId: string, accountId: string, name: string): Promise<void> {
    await trx('notification_bank_accounts')
      .insert({ workspace_id: workspaceId, account_id: accountId, name })
      .onConflict(['workspace_id', 'account_id'])
      .merge({ name });
  },

  /**
   * Records a sync of the account: answers the posted count it had before (null: the first sync seen) or undefined when
   * this sync is not newer than one recorded (a late or repeated one).
   */
  async synced(
    trx: Knex.Transaction,
    workspaceId: string,
    accountId: string,
    version: bigint,
    postedCount: bigint,
  ): Promise<{ before: bigint | null; name: string } | undefined> {
    const row = (await trx('notification_bank_accounts').where({ account_id: accountId }).forUpdate().first()) as
      { posted_count: string | null; synced_version: string; name: string } | undefined;
    if (row && BigInt(row.synced_version) >= version) return undefined;
    await trx('notification_bank_accounts')
      .insert({ workspace_id: workspaceId, account_id: accountId, posted_count: postedCount.toString(), synced_version: version.toString() })
      .onConflict(['workspace_id', 'account_id'])
      .merge({ posted_count: postedCount.toString(), synced_version: version.toString() });
    return { before: row?.posted_count == null ? null : BigInt(row.posted_count), name: row?.name ?? '' };
  },
};
