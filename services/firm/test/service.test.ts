// The firm service on real PostgreSQL: row-level security keeps each firm's rows to its members (the
// application role sees no firm's rows without a caller's membership), a caller outside every firm is
// refused, and a removed member's next call finds no firm.
import { Code, ConnectError } from '@connectrpc/connect';
import { createLogger, createServiceClient, errorInfoOf, newId, tenantHeaders, withTenant } from '@ledgerline/platform';
import { createTestDatabase, type TestDatabase } from '@ledgerline/platform/testing';
import { FirmService as FirmRpc } from '@ledgerline/proto/firm/v1/firm_pb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firmConfigSchema } from '../src/config.js';
import { createFirmService, type FirmService } from '../src/service.js';
import { firmMigrations } from '../src/store/migrations.js';

let db: TestDatabase;
let service: FirmService;
let client: ReturnType<typeof createServiceClient<typeof FirmRpc>>;

beforeAll(async () => {
  db = await createTestDatabase('firm', firmMigrations);
  const config = firmConfigSchema.parse({ NODE_ENV: 'test', LOG_LEVEL: 'silent', FIRM_PORT: '0', FIRM_DATABASE_URL: db.appUrl });
  service = await createFirmService(config, { db: db.appDb, logger: createLogger('firm-test', 'silent') });
  client = createServiceClient(FirmRpc, {
    baseUrl: await service.listen(),
    timeoutMs: 20_000,
    trust: { key: config.SERVICE_TOKEN_KEY, issuer: 'firm-test', audience: 'firm' },
  });
});
afterAll(async () => {
  await service?.stop();
  await db?.drop();
});

const as = (userId: string) => ({ headers: tenantHeaders({ userId }) });

async function refusal(p: Promise<unknown>): Promise<{ code: Code; fields: string[]; message: string }> {
  try {
    await p;
  } catch (err) {
    const e = ConnectError.from(err);
    return { code: e.code, fields: (errorInfoOf(e)?.fields ?? []).map((f) => f.field), message: e.rawMessage };
  }
  throw new Error('expected a refusal');
}

describe('the firm service', () => {
  it('creates a firm for its owner; row-level security hides it from the application role and from other callers', async () => {
    const owner = newId();
    const created = await client.updateFirm({ firmName: ' North Books ', country: 'US', caller: { email: 'Owner@North.test', firstName: 'Ada' } }, as(owner));
    expect(created).toMatchObject({ created: true, firm: { name: 'North Books', country: 'US', ownerUserId: owner } });
    const other = newId();
    await client.updateFirm({ firmName: 'South Books', country: 'CA', caller: { email: 'o@south.test' } }, as(other));

    // Without a caller, and as someone else, the tables show nothing of it.
    const seenBy = (userId?: string) =>
      withTenant(db.appDb, { userId }, async (trx) => ({ firms: await trx('firms').select('name'), members: await trx('firm_members').select('user_id') }));
    expect(await seenBy()).toEqual({ firms: [], members: [] });
    expect((await seenBy(other)).members).toEqual([{ user_id: other }]);
    expect((await seenBy(other)).firms).toEqual([]);
    expect(Number((await db.adminDb('firms').count('* as count'))[0]?.count)).toBe(2);

    const me = await client.getMe({}, as(owner));
    expect(me).toMatchObject({ firm: { name: 'North Books' }, owner: { id: owner, email: 'owner@north.test', role: 'owner' }, me: { id: owner } });
  });

  it('refuses a caller outside every firm, a call without a user, and bad ids naming the field', async () => {
    expect(await refusal(client.getMe({}, as(newId())))).toMatchObject({ code: Code.NotFound, message: 'You do not belong to an accounting firm' });
    expect((await refusal(client.getMe({}, { headers: tenantHeaders({}) }))).code).toBe(Code.Unauthenticated);
    expect(await refusal(client.getMember({ id: 'x' }, as(newId())))).toMatchObject({ code: Code.InvalidArgument, fields: ['id'] });
    expect(await refusal(client.updateFirm({ firmName: '', country: 'US' }, as(newId())))).toMatchObject({ code: Code.InvalidArgument, fields: ['firmName'] });
  });
});
