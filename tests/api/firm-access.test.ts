// Firm access reaches the client's workspaces (issue #16 item 5, docs/decisions/0008-firm-access.md), through the
// gateway with the real identity, firm and ledger services and NATS: an accountant given an organization opens its
// workspaces (those made later too) and categorises a transaction there; remove-access, a role change, removal
// from the firm and the organization leaving the firm apply to their very next request; two firms with two
// clients each never reach each other's; the firm's event alone (no gateway call to identity) converges; a
// replayed or older event changes nothing.
import { createServiceClient, eventSubject, EventType, newId, publishEvent, tenantHeaders } from '@ledgerline/platform';
import { expectEventually } from '@ledgerline/platform/testing';
import { FirmService } from '@ledgerline/proto/firm/v1/firm_pb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankingFor } from '../../services/ledger/test/support.js';
import { onboardBody, signedUpUser, startSystem, uniqueEmail, type System } from '../support/system.js';

let system: System;
interface Person {
  token: string;
  email: string;
  userId: string;
  organizationId: string;
  workspace: string;
}
interface Client {
  organizationId: string;
  workspace: string;
}
interface Firm {
  id: string;
  owner: Person;
  admin: Person;
  accountant: Person;
  clients: [Client, Client];
}

async function person(company: string, email = uniqueEmail('access')): Promise<Person> {
  const u = await signedUpUser(system, email);
  const onboarded = await system.api('POST', '/onboard-user', { token: u.token, body: { ...onboardBody, companyName: company } });
  expect(onboarded.status, JSON.stringify(onboarded.body)).toBe(200);
  const org = await system.api('GET', '/organization', { token: u.token });
  return { token: u.token, email: u.email, userId: u.user.id, organizationId: org.body.id, workspace: u.user.workspace.id };
}

const api = (who: { token: string }, method: string, path: string, body?: unknown, workspace?: string) =>
  system.api(method, path, { token: who.token, body, workspace });

/** What a request in the workspace answers: 200 when the caller may open it, 404 'Workspace not found' when not. */
const open = async (who: Person, workspace: string) => (await api(who, 'GET', '/categories', undefined, workspace)).status;

/** The caller's workspaces as the session resolves them now: id → role. */
async function workspacesOf(who: Person): Promise<Record<string, string>> {
  const me = await api(who, 'GET', '/users/me');
  expect(me.status).toBe(200);
  return Object.fromEntries((me.body.workspaces as { id: string; role: string }[]).map((w) => [w.id, w.role]));
}

async function inviteToken(email: string): Promise<string> {
  const mail = await system.mailTo(email, /^Join .* on Ledgerline$/);
  const link = /https?:\/\/\S+\/verify-invite\?token=[\w-]+&kind=firm/.exec(mail.text ?? '')?.[0];
  if (!link) throw new Error(`no firm invite link in "${mail.text}"`);
  return new URL(link).searchParams.get('token') ?? '';
}

async function join(firmOwner: Person, role: 'admin' | 'accountant', company: string): Promise<Person> {
  const email = uniqueEmail(role);
  expect((await api(firmOwner, 'POST', '/accounting-firm/invite', { email, role })).status).toBe(201);
  const token = await inviteToken(email);
  const who = await person(company, email);
  const accepted = await api(who, 'POST', '/accounting-firm/accept-invite/', { token });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  return who;
}

/** A firm with two new client organizations (its owner is their Owner), an admin and an accountant given nothing yet. */
async function firmWithClients(name: string): Promise<Firm> {
  const owner = await person(`${name} Own Books`);
  const created = await api(owner, 'PATCH', '/accounting-firm', { firmName: name, country: 'US' });
  expect(created.status).toBe(200);
  const clients: Client[] = [];
  for (const client of [`${name} Client One`, `${name} Client Two`]) {
    const made = await api(owner, 'POST', '/accounting-firm/add-organization', { name: client });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    clients.push({ organizationId: made.body.organization.id, workspace: made.body.organization.workspaces[0].id });
  }
  const admin = await join(owner, 'admin', `${name} Admin Co`);
  const accountant = await join(owner, 'accountant', `${name} Accountant Co`);
  return { id: created.body.firm.id, owner, admin, accountant, clients: clients as [Client, Client] };
}

const access = (firm: Firm, who: Person, type: 'give-access' | 'remove-access', organizationIds: string[]) =>
  api(firm.owner, 'PATCH', `/accounting-firm/member-access/${who.userId}`, { type, organizationIds });

/** The one bank transaction of a fresh workspace, as banking would publish it, once the ledger lists it. */
async function transactionIn(viewer: Person, workspace: string): Promise<string> {
  const banking = bankingFor(system.bus, workspace);
  const accountId = await banking.link();
  await banking.add(accountId, { amountCents: -4_250, name: 'Paper Supply Co' });
  return expectEventually(
    async () => {
      const r = await api(viewer, 'GET', '/transactions/v2?take=100', undefined, workspace);
      expect(r.status).toBe(200);
      expect(r.body.data).toHaveLength(1);
      return r.body.data[0].id as string;
    },
    { timeoutMs: 30_000 },
  );
}

let a: Firm;
let b: Firm;

beforeAll(async () => {
  system = await startSystem({
    firm: true,
    ledger: true,
    gatewayEnv: { RATE_LIMIT_GLOBAL_MAX: '100000', RATE_LIMIT_LOGIN_MAX: '100000', RATE_LIMIT_CODE_MAX: '100000' },
  });
  a = await firmWithClients('Alpha Partners');
  b = await firmWithClients('Beta Partners');
}, 240_000);
afterAll(async () => system?.stop());

describe("firm access opens the client organization's workspaces", () => {
  it('the owner and admins open every client at once, as Admin where they are not Owner; an accountant opens none until given', async () => {
    const [one, two] = a.clients;
    expect(await workspacesOf(a.owner)).toMatchObject({ [one.workspace]: 'Owner', [two.workspace]: 'Owner' });
    expect(await workspacesOf(a.admin)).toMatchObject({ [one.workspace]: 'Admin', [two.workspace]: 'Admin' });
    expect(await open(a.admin, one.workspace)).toBe(200);
    expect(await open(a.accountant, one.workspace)).toBe(404);
    const refused = await api(a.accountant, 'GET', '/categories', undefined, one.workspace);
    expect(refused).toMatchObject({ status: 404, body: { message: 'Workspace not found' } });
    // The admin's own books stay their default workspace.
    expect((await api(a.admin, 'GET', '/users/me')).body.workspace.id).toBe(a.admin.workspace);
  });

  it("an accountant given access opens the client's workspace and categorises a transaction there; remove-access applies to the next request", async () => {
    const [one, two] = a.clients;
    expect(await access(a, a.accountant, 'give-access', [one.organizationId])).toMatchObject({ status: 200, body: { member: { organizationCount: 1 } } });
    // No wait: the gateway handed the new state to identity before answering.
    expect(await open(a.accountant, one.workspace)).toBe(200);
    expect(await open(a.accountant, two.workspace)).toBe(404);
    expect(await workspacesOf(a.accountant)).toMatchObject({ [one.workspace]: 'Accountant' });
    const orgs = await api(a.accountant, 'GET', '/accounting-firm/organizations');
    expect(orgs.body.organizations).toEqual([
      expect.objectContaining({ id: one.organizationId, workspaces: [{ id: one.workspace, name: 'Alpha Partners Client One', role: 'Accountant' }] }),
    ]);

    const txn = await transactionIn(a.accountant, one.workspace);
    const categories = (await api(a.accountant, 'GET', '/categories', undefined, one.workspace)).body.categories as { id: string; name: string }[];
    const supplies = categories.find((c) => c.name === 'Office Supplies');
    expect(supplies).toBeDefined();
    const categorised = await api(a.accountant, 'PATCH', `/transactions/${txn}`, { categoryId: supplies!.id }, one.workspace);
    expect(categorised.status, JSON.stringify(categorised.body)).toBe(200);
    const read = await api(a.owner, 'GET', '/transactions/v2?take=100', undefined, one.workspace);
    expect(read.body.data.find((t: { id: string }) => t.id === txn)).toMatchObject({ category: expect.objectContaining({ id: supplies!.id }) });

    expect((await access(a, a.accountant, 'remove-access', [one.organizationId])).status).toBe(200);
    expect(await api(a.accountant, 'PATCH', `/transactions/${txn}`, { categoryId: supplies!.id }, one.workspace)).toMatchObject({
      status: 404,
      body: { message: 'Workspace not found' },
    });
    expect(await workspacesOf(a.accountant)).not.toHaveProperty(one.workspace);
  });

  it("reaches the organization's workspaces made later, and follows a role change at once", async () => {
    const [one, two] = a.clients;
    expect((await access(a, a.accountant, 'give-access', [one.organizationId])).status).toBe(200);
    const made = await api(a.owner, 'POST', '/workspace', { name: 'Second Books' }, one.workspace);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const later = made.body.workspace.id as string;
    expect(await workspacesOf(a.accountant)).toMatchObject({ [one.workspace]: 'Accountant', [later]: 'Accountant' });
    expect((await api(a.accountant, 'GET', '/workspace', undefined, later)).status).toBe(200);

    // Accountant → admin: every organization of the firm, as Admin; and back: only what was given.
    expect((await api(a.owner, 'PATCH', `/accounting-firm/member/${a.accountant.userId}`, { role: 'admin' })).status).toBe(200);
    expect(await workspacesOf(a.accountant)).toMatchObject({ [one.workspace]: 'Admin', [later]: 'Admin', [two.workspace]: 'Admin' });
    expect((await api(a.owner, 'PATCH', `/accounting-firm/member/${a.accountant.userId}`, { role: 'accountant' })).status).toBe(200);
    expect(await open(a.accountant, two.workspace)).toBe(404);
    expect(await workspacesOf(a.accountant)).toMatchObject({ [one.workspace]: 'Accountant', [later]: 'Accountant' });
  });

  it("an organization removed from the firm closes it to the firm's members on their next request (its Owner keeps it)", async () => {
    const [one] = a.clients;
    expect(await open(a.accountant, one.workspace)).toBe(200);
    expect(await open(a.admin, one.workspace)).toBe(200);
    // A workspace the firm's admin makes there is reached through the firm's grant, not a membership of its own.
    const byAdmin = await api(a.admin, 'POST', '/workspace', { name: 'Admin Books' }, one.workspace);
    expect(byAdmin.status, JSON.stringify(byAdmin.body)).toBe(201);
    expect(await workspacesOf(a.admin)).toMatchObject({ [byAdmin.body.workspace.id]: 'Admin' });
    expect((await api(a.owner, 'DELETE', `/accounting-firm/organization/${one.organizationId}`)).status).toBe(200);
    expect(await open(a.accountant, one.workspace)).toBe(404);
    expect(await open(a.admin, one.workspace)).toBe(404);
    expect(await open(a.admin, byAdmin.body.workspace.id)).toBe(404);
    expect(await open(a.owner, one.workspace)).toBe(200);
  });

  it('a member removed from the firm loses every client on their next request', async () => {
    const [, two] = a.clients;
    expect((await access(a, a.accountant, 'give-access', [two.organizationId])).status).toBe(200);
    expect(await open(a.accountant, two.workspace)).toBe(200);
    expect((await api(a.owner, 'DELETE', `/accounting-firm/member/${a.accountant.userId}`)).status).toBe(200);
    expect(await open(a.accountant, two.workspace)).toBe(404);
    expect(Object.keys(await workspacesOf(a.accountant))).toEqual([a.accountant.workspace]);
  });

  it("two firms with two clients each: a member of one never reads or changes the other's clients", async () => {
    // Firm B's accountant is given both of B's clients; A's admin has every client of A.
    expect(
      (
        await access(
          b,
          b.accountant,
          'give-access',
          b.clients.map((c) => c.organizationId),
        )
      ).status,
    ).toBe(200);
    const bTxn = await transactionIn(b.owner, b.clients[1].workspace);
    for (const [mine, theirs] of [
      [a, b],
      [b, a],
    ] as const) {
      for (const who of [mine.owner, mine.admin, mine.accountant]) {
        for (const client of theirs.clients) {
          expect(await open(who, client.workspace), `${who.email} → ${client.workspace}`).toBe(404);
          expect(await workspacesOf(who)).not.toHaveProperty(client.workspace);
        }
        // Another firm's organization in a path or a body: 404 naming the field.
        // (A's accountant was removed from A above: no firm at all; B's accountant is refused as an accountant first.)
        expect((await api(who, 'DELETE', `/accounting-firm/organization/${theirs.clients[0].organizationId}`)).status).toBe(who === b.accountant ? 403 : 404);
        expect((await api(who, 'PATCH', `/accounting-firm/make-default-org/${theirs.clients[0].organizationId}`)).status).toBe(404);
        expect(await api(who, 'POST', '/accounting-firm/add-organization', { organizationId: theirs.clients[0].organizationId })).toMatchObject({
          status: 404,
          body: { errors: [{ field: 'organizationId' }] },
        });
      }
      expect(
        await api(mine.owner, 'PATCH', `/accounting-firm/member-access/${theirs.accountant.userId}`, {
          type: 'give-access',
          organizationIds: [mine.clients[1].organizationId],
        }),
      ).toMatchObject({ status: 404, body: { errors: [{ field: 'id' }] } });
    }
    expect(
      await api(a.owner, 'PATCH', `/accounting-firm/member-access/${a.admin.userId}`, { type: 'give-access', organizationIds: [b.clients[0].organizationId] }),
    ).toMatchObject({ status: 404, body: { errors: [{ field: 'organizationIds' }] } });
    // A's admin with its own client's workspace header cannot reach B's transaction either.
    expect((await api(a.admin, 'PATCH', `/transactions/${bTxn}`, { categoryId: newId() }, a.clients[1].workspace)).status).toBe(404);
    expect(await open(b.accountant, b.clients[1].workspace)).toBe(200);
  });
});

describe("the firm.access_changed event alone brings identity to the firm's state", () => {
  // The firm service called directly, as the gateway does, but nobody hands the answer to identity: a gateway
  // that died between the firm's commit and its SetFirmAccess call.
  const firmClient = () =>
    createServiceClient(FirmService, {
      baseUrl: system.serviceUrls.firm!,
      timeoutMs: 10_000,
      trust: { key: system.serviceTokenKey, issuer: 'test', audience: 'firm' },
    });
  const asOwner = (firm: Firm) => ({ headers: tenantHeaders({ userId: firm.owner.userId }) });
  const inboxHas = async (eventId: string) =>
    expectEventually(
      async () => {
        expect(await system.db.adminDb('inbox').where({ event_id: eventId }).first()).toBeDefined();
      },
      { timeoutMs: 15_000 },
    );
  const grantsOf = async (userId: string) =>
    (
      (await system.db
        .adminDb('organization_grants')
        .where({ user_id: userId })
        .orderBy('organization_id')
        .select('firm_id', 'organization_id', 'role', 'version')) as { version: unknown }[]
    ).map((g) => ({ ...g, version: String(g.version) }));

  it("converges on give-access and remove-access without the gateway's call; a replayed or older event changes nothing", async () => {
    const [one] = b.clients;
    const newcomer = await join(b.owner, 'accountant', 'Beta Newcomer Co');
    expect(await open(newcomer, one.workspace)).toBe(404);

    const given = await firmClient().changeMemberAccess({ id: newcomer.userId, type: 'give-access', organizationIds: [one.organizationId] }, asOwner(b));
    expect(given.access).toHaveLength(1);
    const givenState = given.access[0]!;
    expect(givenState).toMatchObject({ firmId: b.id, userId: newcomer.userId, organizations: [{ organizationId: one.organizationId, role: 'Accountant' }] });
    await expectEventually(async () => expect(await open(newcomer, one.workspace)).toBe(200), { timeoutMs: 15_000 });

    const removed = await firmClient().changeMemberAccess({ id: newcomer.userId, type: 'remove-access', organizationIds: [one.organizationId] }, asOwner(b));
    const removedState = removed.access[0]!;
    expect(removedState.version).toBeGreaterThan(givenState.version);
    expect(removedState.organizations).toEqual([]);
    await expectEventually(async () => expect(await open(newcomer, one.workspace)).toBe(404), { timeoutMs: 15_000 });
    const version = async () => (await system.db.adminDb('firm_access_versions').where({ firm_id: b.id, user_id: newcomer.userId }).first('version'))?.version;
    expect(String(await version())).toBe(String(removedState.version));
    expect(await grantsOf(newcomer.userId)).toEqual([]);

    // The give-access event delivered again (its envelope as the relay sent it, under a new message id so the bus
    // does not drop it): the inbox knows it. Then the same older state as a new event: the version refuses it.
    const outbox = (await system.databases.firm!.adminDb('outbox').where({ type: EventType.FirmAccessChanged }).orderBy('seq')) as {
      id: string;
      envelope: Buffer;
      workspace_id: string;
    }[];
    // The newcomer's states so far: joining (nothing), give-access, remove-access.
    const original = outbox.filter((row) => row.envelope.includes(Buffer.from(newcomer.userId)) && row.workspace_id === b.id).at(-2);
    expect(original).toBeDefined();
    await system.bus.publish(eventSubject(EventType.FirmAccessChanged), new Uint8Array(original!.envelope), { msgId: newId() });
    const older = await publishEvent(system.bus, 'firm', {
      type: EventType.FirmAccessChanged,
      workspaceId: b.id,
      payload: { firmId: b.id, userId: newcomer.userId, version: givenState.version, organizations: [{ organizationId: one.organizationId, role: 'Admin' }] },
    });
    // Events of one subject are handled in order: once the older state is in the inbox, the replay was handled before it.
    await inboxHas(older);
    expect(await open(newcomer, one.workspace)).toBe(404);
    expect(await grantsOf(newcomer.userId)).toEqual([]);
    expect(String(await version())).toBe(String(removedState.version));

    // A newer state by event alone: applied once, whatever the gateway did.
    const regiven = await firmClient().changeMemberAccess({ id: newcomer.userId, type: 'give-access', organizationIds: [one.organizationId] }, asOwner(b));
    await expectEventually(
      async () =>
        expect(await grantsOf(newcomer.userId)).toEqual([
          { firm_id: b.id, organization_id: one.organizationId, role: 'Accountant', version: String(regiven.access[0]!.version) },
        ]),
      { timeoutMs: 15_000 },
    );
    expect(await open(newcomer, one.workspace)).toBe(200);
  });
});
