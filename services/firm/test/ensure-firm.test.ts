// EnsureFirm (a firm sign-up's firm, ensured at every sign-in) on real PostgreSQL: many concurrent ensures for one
// owner make one firm; a later ensure changes nothing of an existing firm; bad input names the field; and
// PeekInvite shows a pending invite without changing it.
import { Code, ConnectError } from '@connectrpc/connect';
import { createLogger, createServiceClient, errorInfoOf, newId, tenantHeaders, type Mailer, type MailMessage } from '@ledgerline/platform';
import { createTestDatabase, type TestDatabase } from '@ledgerline/platform/testing';
import { FirmService as FirmRpc } from '@ledgerline/proto/firm/v1/firm_pb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firmConfigSchema } from '../src/config.js';
import { createFirmService, type FirmService } from '../src/service.js';
import { firmMigrations } from '../src/store/migrations.js';

let db: TestDatabase;
let service: FirmService;
let client: ReturnType<typeof createServiceClient<typeof FirmRpc>>;
const sent: MailMessage[] = [];
const mailer: Mailer = { send: async (m) => void sent.push(m) };

beforeAll(async () => {
  db = await createTestDatabase('firmensure', firmMigrations);
  const config = firmConfigSchema.parse({ NODE_ENV: 'test', LOG_LEVEL: 'silent', FIRM_PORT: '0', FIRM_DATABASE_URL: db.appUrl, MAIL_POLL_MS: '20' });
  service = await createFirmService(config, { db: db.appDb, logger: createLogger('firm-test', 'silent'), mailer });
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

async function refusal(p: Promise<unknown>): Promise<{ code: Code; fields: string[] }> {
  try {
    await p;
  } catch (err) {
    const e = ConnectError.from(err);
    return { code: e.code, fields: (errorInfoOf(e)?.fields ?? []).map((f) => f.field) };
  }
  throw new Error('expected a refusal');
}

describe('EnsureFirm', () => {
  it('makes one firm however many ensures race for one owner, and keeps it as it is afterwards', async () => {
    const owner = newId();
    const caller = { email: 'Owner@Race.test', firstName: 'Ada' };
    const answers = await Promise.all(Array.from({ length: 8 }, () => client.ensureFirm({ firmName: 'Race & Co', country: 'US', caller }, as(owner))));
    expect(answers.filter((a) => a.created)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.firm?.id)).size).toBe(1);
    expect(await db.adminDb('firms').where({ owner_user_id: owner }).select('name')).toEqual([{ name: 'Race & Co' }]);
    expect(await db.adminDb('firm_members').where({ user_id: owner }).select('role', 'email')).toEqual([{ role: 'owner', email: 'owner@race.test' }]);

    await client.updateFirm({ firmName: 'Renamed & Co' }, as(owner));
    const again = await client.ensureFirm({ firmName: 'Race & Co', country: 'US', caller }, as(owner));
    expect(again).toMatchObject({ created: false, firm: { name: 'Renamed & Co', country: 'US' } });
  });

  it('names the missing field', async () => {
    expect(await refusal(client.ensureFirm({ firmName: ' ', country: 'US' }, as(newId())))).toEqual({ code: Code.InvalidArgument, fields: ['firmName'] });
    expect(await refusal(client.ensureFirm({ firmName: 'X' }, as(newId())))).toEqual({ code: Code.InvalidArgument, fields: ['country'] });
  });
});

describe('PeekInvite', () => {
  it("shows a pending invite's email, names and firm, changes nothing, and refuses other tokens alike", async () => {
    const owner = newId();
    await client.ensureFirm({ firmName: 'Peek LLP', country: 'US', caller: { email: 'o@peek.test' } }, as(owner));
    const invited = await client.sendInvite(
      { email: 'New@Peek.test', role: 'accountant', firstName: 'Alan', lastName: 'Turing', caller: { email: 'o@peek.test' } },
      as(owner),
    );
    // The invite mail is the mail outbox's: sent by its job, once.
    await expect.poll(() => sent.filter((m) => m.to === 'new@peek.test').length, { timeout: 5_000 }).toBe(1);
    const token = new URL(/https?:\/\/\S+/.exec(sent.find((m) => m.to === 'new@peek.test')!.text)![0]).searchParams.get('token')!;
    const peek = await client.peekInvite({ token });
    expect(peek).toMatchObject({
      inviteId: invited.invite?.id,
      email: 'new@peek.test',
      firstName: 'Alan',
      lastName: 'Turing',
      role: 'accountant',
      firmName: 'Peek LLP',
    });
    expect((await db.adminDb('firm_invites').where({ id: invited.invite?.id }).first('status')).status).toBe('pending');
    expect(await refusal(client.peekInvite({ token: 'unknown' }))).toEqual({ code: Code.InvalidArgument, fields: ['token'] });
    expect(await refusal(client.peekInvite({}))).toEqual({ code: Code.InvalidArgument, fields: ['token'] });
  });
});
