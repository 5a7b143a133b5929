// Firm access on real PostgreSQL as the application role (docs/decisions/0008-firm-access.md): a state applies
// only when its version is newer; the user's workspaces join grants with memberships (the higher role wins, later
// workspaces included); row-level security shows a user their own grants only.
import { AppError, newId, withTenant } from '@ledgerline/platform';
import { createTestDatabase, type TestDatabase } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firmGrants, tenancy } from '../src/store/identity-store.js';
import { identityMigrations } from '../src/store/migrations.js';
import { FirmAccessUseCases } from '../src/usecases/firm-access.js';

let t: TestDatabase;
let useCases: FirmAccessUseCases;
const firm = newId();
const owner = newId();
const accountant = newId();
const client = { organization: newId(), books: newId(), payroll: newId() };
const other = { organization: newId(), books: newId() };

const workspacesOf = (userId: string) => withTenant(t.appDb, { userId }, (trx) => tenancy.membershipsOf(trx, userId));
const grantRows = (userId: string) => t.adminDb('organization_grants').where({ user_id: userId }).orderBy('organization_id').select('organization_id', 'role');

beforeAll(async () => {
  t = await createTestDatabase('identity_firm_access', identityMigrations);
  useCases = new FirmAccessUseCases({ db: t.appDb, now: () => new Date() });
  await t.adminDb('users').insert([owner, accountant].map((id, i) => ({ id, email: `firm-access-${i}-${id}@example.com` })));
  for (const [org, name] of [
    [client.organization, 'Client Co'],
    [other.organization, 'Other Co'],
  ] as const)
    await t.adminDb('organizations').insert({ id: org, name, owner_user_id: owner });
  await t.adminDb('workspaces').insert([
    { id: client.books, organization_id: client.organization, name: 'Books', is_default: true, created_at: new Date(Date.now() - 2000) },
    { id: other.books, organization_id: other.organization, name: 'Other Books', is_default: true },
  ]);
  await t.adminDb('memberships').insert([
    { workspace_id: client.books, user_id: owner, role: 'Owner' },
    { workspace_id: other.books, user_id: accountant, role: 'Viewer' },
  ]);
});
afterAll(async () => t?.drop());

describe('SetFirmAccess / firm.access_changed', () => {
  it('applies a newer state, ignores one as old or older, and keeps the version of an empty set', async () => {
    const give = { firmId: firm, userId: accountant, version: 5n, organizations: [{ organizationId: client.organization, role: 'Accountant' }] };
    expect(await useCases.set(give)).toEqual({ applied: true, version: 5n });
    expect(await grantRows(accountant)).toEqual([{ organization_id: client.organization, role: 'Accountant' }]);
    expect(await useCases.set(give)).toEqual({ applied: false, version: 5n });
    expect(await useCases.set({ ...give, version: 4n, organizations: [{ organizationId: client.organization, role: 'Admin' }] })).toEqual({
      applied: false,
      version: 5n,
    });
    expect(await grantRows(accountant)).toEqual([{ organization_id: client.organization, role: 'Accountant' }]);

    expect(await useCases.set({ ...give, version: 7n, organizations: [] })).toEqual({ applied: true, version: 7n });
    expect(await grantRows(accountant)).toEqual([]);
    // The give-access of version 5 arriving late (an event after the gateway's call) changes nothing.
    expect(await useCases.set(give)).toEqual({ applied: false, version: 7n });
    expect(await grantRows(accountant)).toEqual([]);

    // An organization identity does not have gives nothing; the known one is granted.
    expect(
      await useCases.set({
        ...give,
        version: 8n,
        organizations: [
          { organizationId: newId(), role: 'Admin' },
          { organizationId: client.organization, role: 'Accountant' },
        ],
      }),
    ).toMatchObject({ applied: true });
    expect(await grantRows(accountant)).toEqual([{ organization_id: client.organization, role: 'Accountant' }]);
  });

  it('refuses a malformed state naming the field', async () => {
    const bad = useCases.set({ firmId: 'nope', userId: accountant, version: 0n, organizations: [{ organizationId: client.organization, role: 'Owner' }] });
    await expect(bad).rejects.toBeInstanceOf(AppError);
    await expect(bad).rejects.toMatchObject({
      fields: expect.arrayContaining([
        { field: 'firmId', message: 'firmId must be a UUID' },
        { field: 'version', message: 'version must be positive' },
        { field: 'organizations.0.role', message: 'role must be Admin or Accountant' },
      ]),
    });
  });

  it('serialises concurrent appliers of one member: the newest state wins whatever the order', async () => {
    const states = [9n, 12n, 10n, 11n].map((version) => ({
      firmId: firm,
      userId: accountant,
      version,
      organizations: version === 12n ? [] : [{ organizationId: client.organization, role: 'Accountant' }],
    }));
    const results = await Promise.all(states.map((s) => useCases.set(s)));
    expect(results.filter((r) => r.applied).map((r) => r.version)).toContain(12n);
    expect(await grantRows(accountant)).toEqual([]);
    expect(String((await t.adminDb('firm_access_versions').where({ firm_id: firm, user_id: accountant }).first()).version)).toBe('12');
  });
});

describe("the user's workspaces", () => {
  it('include every workspace of a granted organization, later ones too, marked with the firm; a membership elsewhere stays', async () => {
    await useCases.set({ firmId: firm, userId: accountant, version: 20n, organizations: [{ organizationId: client.organization, role: 'Accountant' }] });
    await t.adminDb('workspaces').insert({ id: client.payroll, organization_id: client.organization, name: 'Payroll', is_default: false });
    const mine = await workspacesOf(accountant);
    expect(mine.map((w) => [w.workspace_id, w.role, w.firm_id])).toEqual([
      [other.books, 'Viewer', null],
      [client.books, 'Accountant', firm],
      [client.payroll, 'Accountant', firm],
    ]);
  });

  it('keep the higher role where a membership and a grant meet (Owner stays Owner; an Admin grant lifts a Viewer)', async () => {
    await useCases.set({ firmId: firm, userId: owner, version: 21n, organizations: [{ organizationId: client.organization, role: 'Admin' }] });
    expect((await workspacesOf(owner)).find((w) => w.workspace_id === client.books)).toMatchObject({ role: 'Owner', firm_id: null });
    await useCases.set({ firmId: firm, userId: accountant, version: 22n, organizations: [{ organizationId: other.organization, role: 'Admin' }] });
    expect((await workspacesOf(accountant)).map((w) => [w.workspace_id, w.role])).toEqual([[other.books, 'Admin']]);
  });

  it('row-level security: a user sees their own grants only, and no tenant sees none', async () => {
    const seen = (userId: string | undefined) => withTenant(t.appDb, { userId }, (trx) => trx('organization_grants').select('user_id'));
    expect((await seen(owner)).map((r) => r.user_id)).toEqual([owner]);
    expect(await seen(undefined)).toEqual([]);
    expect(await withTenant(t.appDb, { userId: owner }, (trx) => trx('firm_access_versions').where({ user_id: accountant }).select())).toEqual([]);
    // Writing another user's grant as the application role is refused by the policy.
    await expect(
      withTenant(t.appDb, { userId: owner }, (trx) =>
        trx('organization_grants').insert({
          firm_id: firm,
          user_id: accountant,
          organization_id: client.organization,
          role: 'Admin',
          version: 99,
          granted_at: new Date(),
        }),
      ),
    ).rejects.toThrow(/row-level security/);
    expect(await withTenant(t.appDb, { userId: accountant }, (trx) => firmGrants.versionOf(trx, firm, accountant))).toBe(22n);
  });
});
