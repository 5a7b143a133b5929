// The notifications service on real PostgreSQL and NATS, its events played as their publishers would write them: a
// comment tags members → one notification per tagged member (not the author, not others), a mail for those who want
// it; the same event delivered twice → one notification, one mail, one notification.created; syncs, a reconnect and an
// accepted invite; list, mark read and preferences per user and workspace (another user's id is NotFound).
import { fromBinary } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import {
  createLogger,
  createServiceClient,
  errorInfoOf,
  eventMessage,
  eventSubject,
  EventType,
  newId,
  publishEvent,
  tenantHeaders,
  withTenant,
  type OutgoingEvent,
} from '@ledgerline/platform';
import { createTestBus, createTestDatabase, expectEventually, type TestDatabase } from '@ledgerline/platform/testing';
import { EventEnvelopeSchema } from '@ledgerline/proto/events/v1/envelope_pb';
import { NotificationsService as NotificationsRpc } from '@ledgerline/proto/notifications/v1/notifications_pb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationsConfigSchema } from '../src/config.js';
import { createNotificationsService, type NotificationsService } from '../src/service.js';
import { notificationsMigrations } from '../src/store/migrations.js';

let db: TestDatabase;
let bus: Awaited<ReturnType<typeof createTestBus>>;
let service: NotificationsService;
let client: ReturnType<typeof createServiceClient<typeof NotificationsRpc>>;
const sent: { to: string; subject: string; text?: string }[] = [];
const created: { workspaceId: string; userId: string; notificationId: string }[] = [];

beforeAll(async () => {
  [db, bus] = await Promise.all([createTestDatabase('notifications', notificationsMigrations), createTestBus('notifications-test')]);
  const config = notificationsConfigSchema.parse({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    NOTIFICATIONS_PORT: '0',
    NOTIFICATIONS_DATABASE_URL: db.appUrl,
    MAIL_POLL_MS: '100',
    WEB_URL: 'https://app.example',
  });
  const mailer = { send: async (m: { to: string; subject: string; text?: string }) => void sent.push(m), close: async () => undefined };
  service = await createNotificationsService(config, { db: db.appDb, bus, logger: createLogger('notifications-test', 'silent'), mailer: mailer as never });
  client = createServiceClient(NotificationsRpc, {
    baseUrl: await service.listen(),
    timeoutMs: 20_000,
    trust: { key: config.SERVICE_TOKEN_KEY, issuer: 'notifications-test', audience: 'notifications' },
  });
  await bus.subscribe({ durable: 'notifications_test_watch', subjects: [eventSubject(EventType.NotificationCreated)] }, async (msg) => {
    const envelope = fromBinary(EventEnvelopeSchema, msg.data);
    if (envelope.type === EventType.NotificationCreated) {
      const e = eventMessage({ type: envelope.type, payload: envelope.payload });
      created.push({ workspaceId: envelope.workspaceId, userId: e.userId, notificationId: e.notificationId });
    }
    await msg.ack();
  });
}, 60_000);
afterAll(async () => {
  await service?.stop();
  await bus?.close();
  await db?.drop();
});

const as = (workspaceId: string, userId: string) => ({ headers: tenantHeaders({ workspaceId, userId, role: 'Owner' }) });

async function refusal(p: Promise<unknown>): Promise<{ code: Code; fields: string[] }> {
  try {
    await p;
  } catch (err) {
    const e = ConnectError.from(err);
    return { code: e.code, fields: (errorInfoOf(e)?.fields ?? []).map((f) => f.field) };
  }
  throw new Error('expected a refusal');
}

let version = 1n;
async function member(workspaceId: string, userId: string, name: string, role = 'Owner') {
  await publishEvent(bus, 'identity', {
    type: EventType.MemberChanged,
    workspaceId,
    payload: { workspaceId, userId, role, name, email: `${name.split(' ')[0]!.toLowerCase()}-${userId.slice(-6)}@example.com`, version: version++ },
  });
}

/** Waits until the workspace's members arrived (member.changed and the others are consumed on separate subjects). */
const membersKnown = (workspaceId: string, n: number) =>
  expectEventually(async () =>
    expect(await withTenant(db.appDb, { workspaceId }, (trx) => trx('notification_members').count({ n: '*' }).first())).toEqual({ n }),
  );

const stored = (workspaceId: string) =>
  withTenant(db.appDb, { workspaceId }, (trx) => trx('notifications').select('user_id', 'type', 'message', 'redirect_url'));

describe('the notifications service', () => {
  it('notifies each tagged member once (not the author, not the others), mails them, and a redelivered event changes nothing', async () => {
    const ws = newId();
    const [ada, grace, alan] = [newId(), newId(), newId()];
    await member(ws, ada, 'Ada Lovelace');
    await member(ws, grace, 'Grace Hopper', 'Viewer');
    await member(ws, alan, 'Alan Turing', 'Accountant');
    await membersKnown(ws, 3);
    const txn = newId();
    const event: OutgoingEvent = {
      id: newId(),
      type: EventType.TransactionCommented,
      workspaceId: ws,
      payload: {
        commentId: newId(),
        transactionId: txn,
        authorUserId: ada,
        authorName: 'Ada Lovelace',
        comment: 'What was this?',
        taggedUserIds: [grace, ada],
      },
    };
    await publishEvent(bus, 'ledger', event);
    // The same event again, past JetStream's de-duplication (another message id): the inbox makes it a no-op.
    await publishEvent(bus, 'ledger', event, `again-${event.id}`);
    await expectEventually(async () => expect(await stored(ws)).toHaveLength(1));
    expect(await stored(ws)).toEqual([
      {
        user_id: grace,
        type: 'comment_tagged',
        message: 'Ada Lovelace tagged you in a comment: “What was this?”',
        redirect_url: `/transactions?tab=all&txn=${txn}`,
      },
    ]);
    await expectEventually(() => expect(sent.filter((m) => m.to.startsWith('grace-'))).toHaveLength(1));
    expect(sent.find((m) => m.to.startsWith('grace-'))?.text).toContain(`https://app.example/transactions?tab=all&txn=${txn}`);
    await expectEventually(() =>
      expect(created.filter((c) => c.workspaceId === ws)).toEqual([{ workspaceId: ws, userId: grace, notificationId: expect.any(String) }]),
    );

    // Grace's list: the notification, unread; Alan and Ada have none; another workspace sees nothing.
    const list = await client.listNotifications({}, as(ws, grace));
    expect(list).toMatchObject({ total: 1, unreadCount: 1, readCount: 0, page: 1, take: 20 });
    expect(list.notifications[0]).toMatchObject({
      type: 'comment_tagged',
      isRead: false,
      status: 'unread',
      data: { comment: 'What was this?', userName: 'Ada Lovelace', transactionId: txn },
    });
    expect((await client.listNotifications({}, as(ws, alan))).total).toBe(0);
    expect(await stored(newId())).toEqual([]);

    // Another user (or the same user in another workspace) cannot read or mark it: NotFound, and nothing changes.
    const id = list.notifications[0]!.id;
    expect((await refusal(client.markRead({ id }, as(ws, alan)))).code).toBe(Code.NotFound);
    expect((await refusal(client.markRead({ id }, as(newId(), grace)))).code).toBe(Code.NotFound);
    expect(await refusal(client.markManyRead({ notificationIds: [id] }, as(ws, alan)))).toEqual({ code: Code.NotFound, fields: ['notificationIds'] });
    expect((await client.listNotifications({ isRead: 'false' }, as(ws, grace))).total).toBe(1);
    const read = await client.markRead({ id }, as(ws, grace));
    expect(read.notification).toMatchObject({ id, isRead: true, status: 'read' });
    expect(await client.listNotifications({ isRead: 'true' }, as(ws, grace))).toMatchObject({ total: 1, unreadCount: 0, readCount: 1 });
  });

  it('honours the mail preference: a member who turned it off gets the notification without a mail', async () => {
    const ws = newId();
    const [ada, bob] = [newId(), newId()];
    await member(ws, ada, 'Ada Lovelace');
    await member(ws, bob, 'Bob Builder', 'Admin');
    expect((await client.getPreferences({}, as(ws, bob))).preferences).toEqual(
      expect.objectContaining({ emailCommentTagged: true, emailReconnectRequired: true }),
    );
    const off = await client.updatePreferences({ emailCommentTagged: false }, as(ws, bob));
    expect(off.preferences).toEqual(expect.objectContaining({ emailCommentTagged: false, emailReconnectRequired: true }));
    expect((await refusal(client.updatePreferences({}, as(ws, bob)))).fields).toEqual(['emailCommentTagged']);
    await membersKnown(ws, 2);
    await publishEvent(bus, 'ledger', {
      type: EventType.TransactionCommented,
      workspaceId: ws,
      payload: { commentId: newId(), transactionId: newId(), authorUserId: ada, authorName: 'Ada Lovelace', comment: 'See this', taggedUserIds: [bob] },
    });
    await expectEventually(async () => expect(await stored(ws)).toHaveLength(1));
    // A mail would have been written with the notification (the outbox's rows keep their address once sent).
    expect(await db.adminDb('mail_outbox').where('to', 'like', 'bob-%').count({ n: '*' })).toEqual([{ n: 0 }]);
    expect(sent.filter((m) => m.to.startsWith('bob-'))).toEqual([]);
  });

  it('tells the bank roles of an import and of later syncs that brought transactions, of a reconnect (by mail), and the inviter of an accepted invite', async () => {
    const ws = newId();
    const [owner, viewer, joiner] = [newId(), newId(), newId()];
    await member(ws, owner, 'Olive Owner');
    await member(ws, viewer, 'Vic Viewer', 'Viewer');
    await membersKnown(ws, 2);
    const accountId = newId();
    await publishEvent(bus, 'banking', {
      type: EventType.BankAccountLinked,
      workspaceId: ws,
      payload: {
        accountId,
        name: 'Plaid Checking',
        mask: '0000',
        type: 'depository',
        subtype: 'checking',
        institutionName: 'First Platypus Bank',
        isoCurrencyCode: 'USD',
        source: 'plaid',
      },
    });
    // Linked and synced are consumed on separate subjects: the name is there before the first sync, as in real life.
    await expectEventually(async () =>
      expect(await withTenant(db.appDb, { workspaceId: ws }, (trx) => trx('notification_bank_accounts').select('name'))).toEqual([{ name: 'Plaid Checking' }]),
    );
    const synced = (v: bigint, postedCount: bigint) =>
      publishEvent(bus, 'banking', {
        type: EventType.BankAccountSynced,
        workspaceId: ws,
        payload: { accountId, version: v, postedCount, syncedAt: new Date().toISOString() },
      });
    await synced(1n, 12n);
    await expectEventually(async () =>
      expect((await stored(ws)).map((n) => n.message)).toEqual(['Import finished: 12 transactions from Plaid Checking are ready to review']),
    );
    await synced(2n, 12n); // nothing new: nobody is told
    await synced(3n, 15n);
    await synced(2n, 13n); // older, arriving late: ignored
    await expectEventually(async () => expect(await stored(ws)).toHaveLength(2));
    await publishEvent(bus, 'banking', {
      type: EventType.BankConnectionReconnectRequired,
      workspaceId: ws,
      payload: { itemId: newId(), accountIds: [accountId], institutionName: 'First Platypus Bank', reason: 'ITEM_LOGIN_REQUIRED' },
    });
    await publishEvent(bus, 'identity', {
      type: EventType.InviteAccepted,
      workspaceId: ws,
      payload: { inviteId: newId(), invitedByUserId: owner, userId: joiner, userName: 'Jo Joiner', email: 'jo@example.com', role: 'Accountant' },
    });
    await expectEventually(async () =>
      expect((await stored(ws)).map((n) => [n.user_id, n.type, n.message]).sort()).toEqual(
        [
          [owner, 'sync_finished', 'Import finished: 12 transactions from Plaid Checking are ready to review'],
          [owner, 'sync_finished', 'Sync finished: 3 new transactions from Plaid Checking to review'],
          [owner, 'reconnect_required', 'First Platypus Bank needs you to reconnect: syncing has stopped until you sign in to the bank again'],
          [owner, 'invite_accepted', 'Jo Joiner accepted your invite and joined as Accountant'],
        ].sort(),
      ),
    );
    await expectEventually(() =>
      expect(sent.filter((m) => m.to.startsWith('olive-')).map((m) => m.subject)).toEqual(['A bank connection needs you on Ledgerline']),
    );
  });

  it('refuses bad paging and filters naming the field, and bad ids', async () => {
    const ws = newId();
    const user = newId();
    expect((await refusal(client.listNotifications({ isRead: 'yes' }, as(ws, user)))).fields).toEqual(['isRead']);
    expect((await refusal(client.listNotifications({ take: 101 }, as(ws, user)))).fields).toEqual(['take']);
    expect((await refusal(client.listNotifications({ page: -1 }, as(ws, user)))).fields).toEqual(['page']);
    expect((await refusal(client.markRead({ id: 'nope' }, as(ws, user)))).fields).toEqual(['id']);
    expect((await refusal(client.markManyRead({ notificationIds: ['nope'] }, as(ws, user)))).fields).toEqual(['notificationIds']);
    expect(await client.markManyRead({}, as(ws, user))).toMatchObject({ marked: 0, unreadCount: 0 });
  });
});
