// The workspace's members from identity's member.changed (decision 0036) on a running ledger with real NATS and
// PostgreSQL: a member is taggable (name, email) without having opened the drawer; a new name and a role change
// follow; a removed member is no longer offered nor taggable but their comments and tags keep their name; an older
// state arriving late, a redelivery and the backfill's repeat change nothing; a payload naming another workspace is
// dead-lettered; a user the gateway let act before their event arrived is a member until identity says otherwise.
import { create } from '@bufbuild/protobuf';
import { AppError, newId, withTenant, type Role } from '@ledgerline/platform';
import { createTestBus, createTestDatabase, expectEventually } from '@ledgerline/platform/testing';
import { BankTransactionSchema } from '@ledgerline/proto/events/v1/banking_pb';
import { MemberChangedSchema } from '@ledgerline/proto/events/v1/identity_pb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMENT_MSG } from '../src/domain/comments.js';
import { MEMBERS_CONSUMER } from '../src/events/members.js';
import { ensureBankLedgerAccount, ensureChart } from '../src/store/chart-store.js';
import { ledgerMigrations } from '../src/store/migrations.js';
import { membersMigration } from '../src/store/migrations-members.js';
import { applyBankTransaction } from '../src/usecases/bank-events.js';
import { publish, rows, startLedger, type LedgerHarness } from './support.js';

let bus: Awaited<ReturnType<typeof createTestBus>>;
let h: LedgerHarness;
const dead: string[] = [];

beforeAll(async () => {
  bus = await createTestBus('ledger-members');
  h = await startLedger(bus, { maxDeliver: 2 });
  await bus.subscribe({ durable: 'test_dead_members', subjects: [`dead.${MEMBERS_CONSUMER}`] }, async (msg) => {
    dead.push(msg.headers['Nats-Msg-Id'] ?? '');
  });
}, 60_000);
afterAll(async () => {
  await h?.close();
  await bus?.close();
});

type Tenant = { workspaceId: string; userId: string; role: Role };

/** A workspace with one bank transaction (booked directly), and its Owner. */
async function workspaceWithTransaction(): Promise<{ tenant: Tenant; txnId: string }> {
  const ws = newId();
  const tenant: Tenant = { workspaceId: ws, userId: newId(), role: 'Owner' };
  const bankId = newId();
  await withTenant(h.db.appDb, tenant, async (trx) => {
    await ensureChart(trx, ws);
    const bank = await ensureBankLedgerAccount(trx, ws, {
      accountId: newId(),
      name: 'Checking',
      mask: '1',
      type: 'depository',
      subtype: 'checking',
      institutionName: 'B',
    });
    await applyBankTransaction(
      trx,
      ws,
      create(BankTransactionSchema, {
        id: bankId,
        accountId: bank.bank_account_id as string,
        externalId: bankId,
        amountCents: -4250n,
        isoCurrencyCode: 'USD',
        date: '2026-10-05',
        name: 'Office Depot',
        version: 1n,
      }),
    );
  });
  const [r] = await rows<{ id: string }>(h.db.adminDb, 'select id from workspace_transactions where bank_transaction_id = ?', [bankId]);
  return { tenant, txnId: r?.id as string };
}

let version = 1000n;
/** identity's member.changed for a pair (the next version unless given). */
function memberChanged(
  workspaceId: string,
  userId: string,
  state: { role?: string; removed?: boolean; name?: string; email?: string; version?: bigint },
  id = newId(),
): Promise<string> {
  const removed = state.removed ?? false;
  return publish(
    bus,
    'member.changed',
    workspaceId,
    MemberChangedSchema,
    {
      workspaceId,
      userId,
      role: removed ? '' : (state.role ?? 'Viewer'),
      removed,
      name: state.name ?? '',
      email: state.email ?? '',
      version: state.version ?? (version += 1n),
    },
    id,
  );
}

const u = () => h.service.useCases.comments;
const offered = async (tenant: Tenant) => (await u().taggableUsers(tenant, undefined)).map((m) => `${m.name} <${m.email}>`);
const handled = async (eventId: string) =>
  expectEventually(async () => {
    const [r] = await rows<{ n: number }>(h.db.adminDb, 'select count(*)::int as n from inbox where consumer = ? and event_id = ?', [
      MEMBERS_CONSUMER,
      eventId,
    ]);
    expect(r?.n).toBe(1);
  });

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

describe("the workspace's members from member.changed", () => {
  it('offers every member identity told of, by name with their email, without their having acted', async () => {
    const { tenant, txnId } = await workspaceWithTransaction();
    const grace = newId();
    const alan = newId();
    await memberChanged(tenant.workspaceId, tenant.userId, { role: 'Owner', name: 'Ada Lovelace', email: 'ada@example.com' });
    await memberChanged(tenant.workspaceId, grace, { role: 'Viewer', name: 'Grace Hopper', email: 'grace@example.com' });
    await handled(await memberChanged(tenant.workspaceId, alan, { role: 'Accountant', name: 'Alan Turing', email: 'alan@example.com' }));
    await expectEventually(async () =>
      expect(await offered(tenant)).toEqual(['Ada Lovelace <ada@example.com>', 'Alan Turing <alan@example.com>', 'Grace Hopper <grace@example.com>']),
    );
    // Another workspace sees none of them.
    const other = await workspaceWithTransaction();
    expect((await u().taggableUsers(other.tenant, undefined)).map((m) => m.id)).toEqual([other.tenant.userId]);
    const r = await u().post(tenant, txnId, 'Toner?', [grace, alan], undefined);
    expect(r.comment.taggedUsers).toEqual([
      { id: grace, name: 'Grace Hopper' },
      { id: alan, name: 'Alan Turing' },
    ]);
    expect(r.comment.user_name).toBe('Ada Lovelace');
  });

  it('follows a new name, and stops offering a removed member while their comment and tag keep the name', async () => {
    const { tenant, txnId } = await workspaceWithTransaction();
    const grace = newId();
    await memberChanged(tenant.workspaceId, tenant.userId, { role: 'Owner', name: 'Ada Lovelace', email: 'ada@example.com' });
    await handled(await memberChanged(tenant.workspaceId, grace, { role: 'Admin', name: 'Grace Hopper', email: 'grace@example.com' }));
    await u().post({ ...tenant, userId: grace, role: 'Admin' }, txnId, 'Mine', [], undefined);
    await u().post(tenant, txnId, 'Tagging Grace', [grace], undefined);

    await handled(await memberChanged(tenant.workspaceId, grace, { role: 'Admin', name: 'Grace B. Hopper', email: 'grace@navy.example' }));
    expect(await offered(tenant)).toContain('Grace B. Hopper <grace@navy.example>');

    const removedAt = await memberChanged(tenant.workspaceId, grace, { removed: true, name: 'Grace B. Hopper', email: 'grace@navy.example' });
    await handled(removedAt);
    expect(await offered(tenant)).toEqual(['Ada Lovelace <ada@example.com>']);
    expect((await refusal(u().post(tenant, txnId, 'Still there?', [grace], undefined))).options.fields).toEqual([
      { field: 'taggedUsers', message: COMMENT_MSG.notMember },
    ]);
    const listed = await u().list(tenant, txnId);
    expect(listed.map((c) => [c.comment, c.user_name, c.taggedUsers.map((t) => t.name)])).toEqual([
      ['Mine', 'Grace B. Hopper', []],
      ['Tagging Grace', 'Ada Lovelace', ['Grace B. Hopper']],
    ]);
    // The names of earlier work: the former members too, flagged.
    expect((await u().taggableUsers(tenant, undefined, true)).find((m) => m.id === grace)).toEqual({
      id: grace,
      name: 'Grace B. Hopper',
      email: 'grace@navy.example',
      former: true,
    });
    // A request of hers in flight when she was removed does not make her a member again.
    await u().taggableUsers({ ...tenant, userId: grace, role: 'Admin' }, { name: 'Grace', email: 'grace@example.com' });
    expect(await offered(tenant)).toEqual(['Ada Lovelace <ada@example.com>']);
    // Invited again: offered again.
    await handled(await memberChanged(tenant.workspaceId, grace, { role: 'Viewer', name: 'Grace B. Hopper', email: 'grace@navy.example' }));
    expect(await offered(tenant)).toContain('Grace B. Hopper <grace@navy.example>');
  });

  it('keeps the newest state: an older one arriving late, a redelivery and a repeat of the same version change nothing', async () => {
    const { tenant } = await workspaceWithTransaction();
    const grace = newId();
    await handled(await memberChanged(tenant.workspaceId, grace, { role: 'Viewer', name: 'Grace Hopper', email: 'g@example.com', version: 50_000n }));
    // Removed at version 49,000: older than what is held.
    await handled(await memberChanged(tenant.workspaceId, grace, { removed: true, version: 49_000n }));
    expect(await offered(tenant)).toContain('Grace Hopper <g@example.com>');
    // The same event twice (a redelivery under its id): handled once.
    const id = newId();
    await memberChanged(tenant.workspaceId, grace, { role: 'Viewer', name: 'Grace Renamed', email: 'g@example.com', version: 50_001n }, id);
    await memberChanged(tenant.workspaceId, grace, { role: 'Viewer', name: 'Grace Renamed', email: 'g@example.com', version: 50_001n }, id);
    await handled(id);
    expect(await offered(tenant)).toContain('Grace Renamed <g@example.com>');
    // An event from before versions existed (0, no name) after a versioned one: older, ignored.
    await handled(await memberChanged(tenant.workspaceId, grace, { removed: true, version: 0n }));
    expect(await offered(tenant)).toContain('Grace Renamed <g@example.com>');
  });

  it('applies the events written before versions in arrival order, keeping the name it knew', async () => {
    const { tenant } = await workspaceWithTransaction();
    const grace = newId();
    // Seen acting through the gateway, before identity told of her.
    await u().taggableUsers({ ...tenant, userId: grace, role: 'Viewer' }, { name: 'Grace Hopper', email: 'grace@example.com' });
    expect(await offered(tenant)).toContain('Grace Hopper <grace@example.com>');
    await handled(await memberChanged(tenant.workspaceId, grace, { removed: true, version: 0n }));
    expect(await offered(tenant)).not.toContain('Grace Hopper <grace@example.com>');
    await handled(await memberChanged(tenant.workspaceId, grace, { role: 'Viewer', version: 0n }));
    expect(await offered(tenant)).toContain('Grace Hopper <grace@example.com>');
  });

  it('dead-letters a payload that names another workspace than its envelope, changing nothing', async () => {
    const { tenant } = await workspaceWithTransaction();
    const other = await workspaceWithTransaction();
    const intruder = newId();
    const id = newId();
    await publish(
      bus,
      'member.changed',
      tenant.workspaceId,
      MemberChangedSchema,
      { workspaceId: other.tenant.workspaceId, userId: intruder, role: 'Admin', name: 'Mallory', email: 'm@example.com', version: 99_999_999n },
      id,
    );
    await expectEventually(async () => expect(dead).toContain(`dead:${MEMBERS_CONSUMER}:${id}`));
    const stored = await rows<{ n: number }>(h.db.adminDb, 'select count(*)::int as n from workspace_members where user_id = ?', [intruder]);
    expect(stored[0]?.n).toBe(0);
  });
});

describe('the migration', () => {
  it('keeps the members seen before as current members, and going down keeps those seen but not those identity said left', async () => {
    const t = await createTestDatabase('ledger_members_migration', ledgerMigrations);
    try {
      const [ws, seen, gone] = [newId(), newId(), newId()];
      await membersMigration.down(t.adminDb);
      await t.adminDb('workspace_members_seen').insert({ workspace_id: ws, user_id: seen, name: 'Seen Before', email: 's@example.com' });
      await membersMigration.up(t.adminDb);
      expect(await t.adminDb('workspace_members').select('user_id', 'name', 'role', 'removed_at', 'version')).toEqual([
        { user_id: seen, name: 'Seen Before', role: null, removed_at: null, version: 0 },
      ]);
      await t
        .adminDb('workspace_members')
        .insert({ workspace_id: ws, user_id: gone, name: 'Gone', email: 'g@example.com', removed_at: new Date(), version: 7 });
      await membersMigration.down(t.adminDb);
      expect((await t.adminDb('workspace_members_seen').select('user_id')).map((r: { user_id: string }) => r.user_id)).toEqual([seen]);
      await membersMigration.up(t.adminDb);
    } finally {
      await t.drop();
    }
  });
});
