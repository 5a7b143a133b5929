// member.changed (decision 0036) on the real identity service and PostgreSQL: written with the member's name, email,
// role and a growing version wherever access starts (sign-up, a new workspace, an accepted invite, a firm's grant),
// changes (a role, a name) or ends (removal, a grant withdrawn, a workspace deleted), and once for every current pair
// by the migration that added the fields (the backfill for members who joined before).
import { fromBinary } from '@bufbuild/protobuf';
import { eventMessage, EventType, newId, type EventMessage } from '@ledgerline/platform';
import { createTestBus } from '@ledgerline/platform/testing';
import { EventEnvelopeSchema } from '@ledgerline/proto/events/v1/envelope_pb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityMigrations } from '../src/store/migrations.js';
import { GOOD_PASSWORD, signUpBody, startIdentity, uniqueEmail, type IdentityHarness } from './support.js';

type MemberEvent = EventMessage<typeof EventType.MemberChanged> & { envelopeWorkspace: string };

let h: IdentityHarness;
let bus: Awaited<ReturnType<typeof createTestBus>>;

beforeAll(async () => {
  bus = await createTestBus('identity-member-events');
  h = await startIdentity(bus);
  // The relay would mark rows published and the retention job could remove them: the test reads the outbox itself.
  await h.service.relay.stop();
});
afterAll(async () => {
  await h?.close();
  await bus?.close();
});

/** Every member.changed in the outbox, oldest first (optionally of one user). */
async function memberEvents(userId?: string): Promise<MemberEvent[]> {
  const rows = (await h.db.adminDb('outbox').where({ type: EventType.MemberChanged }).orderBy('seq').select('envelope', 'workspace_id')) as {
    envelope: Buffer;
    workspace_id: string;
  }[];
  return rows
    .map((r) => {
      const env = fromBinary(EventEnvelopeSchema, new Uint8Array(r.envelope));
      return { ...eventMessage({ type: EventType.MemberChanged, payload: env.payload }), envelopeWorkspace: r.workspace_id };
    })
    .filter((e) => userId === undefined || e.userId === userId);
}

const last = async (userId: string, workspaceId: string): Promise<MemberEvent | undefined> =>
  (await memberEvents(userId)).filter((e) => e.workspaceId === workspaceId).at(-1);

/** A signed-up, verified user: their token, id and default workspace. */
async function signedUp(first = 'Ada', lastName = 'Lovelace'): Promise<{ token: string; userId: string; workspaceId: string; email: string }> {
  const email = uniqueEmail('member');
  const s = await h.client.signUp({ ...signUpBody(email), firstName: first, lastName });
  const r = await h.client.authenticateOtp({ methodId: s.methodId, code: await h.mailer.lastCodeFor(email), sessionToken: s.sessionToken });
  return { token: r.sessionToken, userId: r.user!.id, workspaceId: r.user!.workspace!.id, email };
}

/** Invites `email` into the owner's workspace and accepts as a new user. */
async function invited(owner: { token: string; workspaceId: string }, role = 'Viewer') {
  const email = uniqueEmail('invitee');
  await h.service.teams.sendInvite(owner.token, { email, role, firstName: 'Grace', lastName: 'Hopper' }, owner.workspaceId);
  await h.mailer.settle();
  const mail = [...h.mailer.sent].reverse().find((m) => m.to === email);
  const token = mail?.text.match(/token=([A-Za-z0-9_-]+)/)?.[1];
  if (!token) throw new Error(`no invite mailed to ${email}`);
  const accepted = await h.service.teams.verifyInvite({ token, password: GOOD_PASSWORD, confirmPassword: GOOD_PASSWORD });
  if (accepted.status !== 'accepted' || !accepted.user || !accepted.sessionToken) throw new Error('the invite was not accepted');
  return { email, userId: accepted.user.id, token: accepted.sessionToken };
}

describe('member.changed', () => {
  it("is written at sign-up for the owner's workspace, with the name, email, role and a version, in that workspace's row", async () => {
    const owner = await signedUp('Ada', 'Lovelace');
    const [event, ...more] = await memberEvents(owner.userId);
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      workspaceId: owner.workspaceId,
      envelopeWorkspace: owner.workspaceId,
      userId: owner.userId,
      role: 'Owner',
      removed: false,
      name: 'Ada Lovelace',
      email: owner.email,
    });
    expect(event!.version).toBeGreaterThan(0n);
  });

  it('follows a member from invite to role change, new name and removal, each state newer than the one before', async () => {
    const owner = await signedUp();
    const member = await invited(owner);
    const joined = await last(member.userId, owner.workspaceId);
    expect(joined).toMatchObject({ role: 'Viewer', removed: false, name: 'Grace Hopper', email: member.email });

    await h.service.teams.updateMember(owner.token, member.userId, { role: 'Accountant' }, owner.workspaceId);
    const promoted = await last(member.userId, owner.workspaceId);
    expect(promoted).toMatchObject({ role: 'Accountant', removed: false, name: 'Grace Hopper' });

    await h.service.useCases.updateMe(member.token, { firstName: 'Grace B.' }, owner.workspaceId);
    const renamed = await last(member.userId, owner.workspaceId);
    expect(renamed).toMatchObject({ role: 'Accountant', removed: false, name: 'Grace B. Hopper', email: member.email });
    // A save that changes no name writes nothing.
    const count = (await memberEvents(member.userId)).length;
    await h.service.useCases.updateMe(member.token, { firstName: 'Grace B.' }, owner.workspaceId);
    expect(await memberEvents(member.userId)).toHaveLength(count);

    await h.service.teams.removeMember(owner.token, member.userId, owner.workspaceId);
    const removed = await last(member.userId, owner.workspaceId);
    // Removed, and still named: a consumer keeps the name for what they wrote before.
    expect(removed).toMatchObject({ role: '', removed: true, name: 'Grace B. Hopper', email: member.email });

    const versions = [joined, promoted, renamed, removed].map((e) => e!.version);
    expect([...versions].sort((a, b) => (a < b ? -1 : 1))).toEqual(versions);
    expect(new Set(versions).size).toBe(4);
  });

  it("gives a new workspace's owner and creator their access, and says removed for each when it is deleted", async () => {
    const owner = await signedUp();
    const admin = await invited(owner, 'Admin');
    const { workspace } = await h.service.teams.createWorkspace(admin.token, { name: 'Payroll' }, owner.workspaceId);
    expect(await last(owner.userId, workspace.id)).toMatchObject({ role: 'Owner', removed: false, envelopeWorkspace: workspace.id });
    expect(await last(admin.userId, workspace.id)).toMatchObject({ role: 'Admin', removed: false, name: 'Grace Hopper' });

    await h.service.teams.deleteWorkspace(owner.token, workspace.id, owner.workspaceId);
    expect(await last(owner.userId, workspace.id)).toMatchObject({ removed: true, role: '' });
    expect(await last(admin.userId, workspace.id)).toMatchObject({ removed: true, role: '' });
    // Their access elsewhere is untouched.
    expect(await last(admin.userId, owner.workspaceId)).toMatchObject({ removed: false, role: 'Admin' });
  });

  it("covers firm members: a grant opens the organization's workspaces, a role change and a withdrawal are told too", async () => {
    const client = await signedUp('Client', 'Owner');
    const firmUser = await signedUp('Frank', 'Firm');
    const firmId = newId();
    const org = ((await h.db.adminDb('workspaces').where({ id: client.workspaceId }).first('organization_id')) as { organization_id: string }).organization_id;

    await h.service.firmAccess.set({ firmId, userId: firmUser.userId, version: 1n, organizations: [{ organizationId: org, role: 'Accountant' }] });
    expect(await last(firmUser.userId, client.workspaceId)).toMatchObject({ role: 'Accountant', removed: false, name: 'Frank Firm', email: firmUser.email });

    // A workspace made later is theirs by the grant: its creation tells so.
    const { workspace } = await h.service.teams.createWorkspace(client.token, { name: 'Later' }, client.workspaceId);
    expect(await last(firmUser.userId, workspace.id)).toMatchObject({ role: 'Accountant', removed: false });

    const before = (await memberEvents(firmUser.userId)).length;
    // The same state again changes nothing and writes nothing.
    await h.service.firmAccess.set({ firmId, userId: firmUser.userId, version: 2n, organizations: [{ organizationId: org, role: 'Accountant' }] });
    expect(await memberEvents(firmUser.userId)).toHaveLength(before);

    await h.service.firmAccess.set({ firmId, userId: firmUser.userId, version: 3n, organizations: [{ organizationId: org, role: 'Admin' }] });
    expect(await last(firmUser.userId, client.workspaceId)).toMatchObject({ role: 'Admin', removed: false });
    expect(await last(firmUser.userId, workspace.id)).toMatchObject({ role: 'Admin', removed: false });

    await h.service.firmAccess.set({ firmId, userId: firmUser.userId, version: 4n, organizations: [] });
    expect(await last(firmUser.userId, client.workspaceId)).toMatchObject({ role: '', removed: true, name: 'Frank Firm' });
    expect(await last(firmUser.userId, workspace.id)).toMatchObject({ role: '', removed: true });
    // Their own workspace is not the grant's business.
    expect((await memberEvents(firmUser.userId)).filter((e) => e.workspaceId === firmUser.workspaceId)).toHaveLength(1);
  });
});

describe('the backfill migration', () => {
  it('writes one event per member and workspace with access now (memberships and grants), with names; down and up again repeats it', async () => {
    const owner = await signedUp('Back', 'Fill');
    const member = await invited(owner, 'Accountant');
    const migration = identityMigrations.find((m) => m.name === '20261215100000_identity_member_events');
    expect(migration).toBeDefined();
    const before = await h.db.adminDb('outbox').max('seq as seq').first();
    const older = (await memberEvents(member.userId)).at(-1)!.version;
    await migration!.down(h.db.adminDb);
    await migration!.up(h.db.adminDb);
    const rows = (await h.db
      .adminDb('outbox')
      .where({ type: EventType.MemberChanged })
      .andWhere('seq', '>', Number((before as { seq: string | number }).seq))
      .orderBy('seq')
      .select('envelope', 'workspace_id')) as { envelope: Buffer; workspace_id: string }[];
    const events = rows.map((r) => ({
      ...eventMessage({ type: EventType.MemberChanged, payload: fromBinary(EventEnvelopeSchema, new Uint8Array(r.envelope)).payload }),
      envelopeWorkspace: r.workspace_id,
    }));
    // Every pair with access now, once: the memberships and the grants' workspaces (a deleted workspace's members are gone).
    const pairs = (
      (await h.db.adminDb.raw(
        `select workspace_id::text || ' ' || user_id::text as k from memberships
         union select w.id::text || ' ' || g.user_id::text from organization_grants g join workspaces w on w.organization_id = g.organization_id`,
      )) as { rows: { k: string }[] }
    ).rows.map((r) => r.k);
    expect(events.map((e) => `${e.workspaceId} ${e.userId}`).sort()).toEqual([...pairs].sort());
    expect(events.every((e) => e.envelopeWorkspace === e.workspaceId && !e.removed && e.version > 0n)).toBe(true);
    expect(events.find((e) => e.userId === member.userId && e.workspaceId === owner.workspaceId)).toMatchObject({
      role: 'Accountant',
      name: 'Grace Hopper',
      email: member.email,
    });
    expect(events.find((e) => e.userId === owner.userId && e.workspaceId === owner.workspaceId)).toMatchObject({ role: 'Owner', name: 'Back Fill' });
    // The sequence made again starts past every version written before (a consumer must not take the backfill as old).
    expect(events.every((e) => e.version > older)).toBe(true);
  });
});
