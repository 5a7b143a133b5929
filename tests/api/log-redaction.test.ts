// Issue #15 item 4: linking a bank through the Plaid sandbox, syncing it, reconnecting and unlinking it
// write no access token and no public token to any log line of any service or the gateway (all logging at
// trace level, a failed Plaid call among them), and the access token is stored sealed, never in plain text.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEventually } from '@ledgerline/platform/testing';
import { onboardBody, signedUpUser, startSystem, type System } from '../support/system.js';

const lines: string[] = [];
const destination = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  },
});

let system: System;
beforeAll(async () => {
  // One attempt per sync job: the Plaid failure below is logged with its error ('sync job failed').
  system = await startSystem({ banking: true, bankingEnv: { SYNC_MAX_ATTEMPTS: '1' }, logs: { level: 'trace', destination } });
}, 120_000);
afterAll(async () => system?.stop());

describe('logs while a bank is linked, synced, reconnected and unlinked', () => {
  it('never carry an access token or a public token', async () => {
    const user = await signedUpUser(system);
    const workspace = user.user.workspace.id;
    const onboarded = await system.api('POST', '/onboard-user', { token: user.token, workspace, body: onboardBody });
    expect(onboarded.status).toBe(200);
    const plaid = system.plaid!;

    // Plaid fails the first sync page: the HTTP client's error carries the request (and its access token) with it.
    plaid.failNext({ endpoint: '/transactions/sync', error: 'INTERNAL_SERVER_ERROR', times: 1 });
    const publicToken = plaid.createPublicToken({
      institution_id: 'ins_109508',
      initial_products: ['transactions'],
      options: { ledgerline: { transactions: 30, seed: 7, initial_webhook: false } },
    });
    const item = plaid.listItems().at(-1)!;
    const institution = plaid.institutions().find((i) => i.institutionId === 'ins_109508')!;
    const accounts = item.accounts.map((a) => ({
      id: a.account_id,
      name: a.name,
      mask: a.mask,
      type: a.subtype === 'credit card' ? 'credit' : 'depository',
      subtype: a.subtype,
    }));
    const linked = await system.api('POST', '/accounts', {
      token: user.token,
      workspace,
      body: { publicToken, accounts, institution: { name: institution.name, institution_id: institution.institutionId }, ignoreDuplicateAccounts: false },
    });
    expect(linked.status).toBe(200);
    expect(linked.body.accounts.length).toBeGreaterThan(0);

    // The first sync fails and is logged; a second one runs to its end.
    await expectEventually(
      async () => {
        const jobs = await system.api('GET', '/jobs', { token: user.token, workspace });
        expect(jobs.status).toBe(200);
        expect(jobs.body.jobs.map((j: { status: string }) => j.status)).toEqual(['failed']);
      },
      { timeoutMs: 60_000, intervalMs: 200 },
    );
    expect(lines.some((l) => l.includes('sync job failed'))).toBe(true);
    expect((await system.api('POST', '/transactions/sync', { token: user.token, workspace, body: { accountId: linked.body.accounts[0].id } })).status).toBe(
      200,
    );
    await expectEventually(
      async () => {
        const jobs = await system.api('GET', '/jobs', { token: user.token, workspace });
        expect(jobs.body.jobs.some((j: { status: string }) => j.status === 'completed')).toBe(true);
      },
      { timeoutMs: 60_000, intervalMs: 200 },
    );

    // Unlinking ends the item at Plaid: its token is read now.
    const accessTokens = plaid.listItems().map((i) => i.access_token);
    expect(accessTokens.length).toBe(1);
    const accountId = linked.body.accounts[0].id as string;
    expect((await system.api('POST', '/plaid/update-token', { token: user.token, workspace, body: { accountId } })).status).toBe(200);
    // A refused public token: the error path of the exchange.
    const refused = await system.api('POST', '/accounts', {
      token: user.token,
      workspace,
      body: {
        publicToken: 'public-sandbox-00000000-0000-4000-8000-000000000000',
        accounts,
        institution: { name: institution.name, institution_id: institution.institutionId },
        ignoreDuplicateAccounts: true,
      },
    });
    expect(refused.status).toBe(400);
    for (const a of linked.body.accounts as { id: string }[])
      expect((await system.api('DELETE', `/accounts/${a.id}`, { token: user.token, workspace })).status).toBe(200);

    expect(plaid.listItems()).toEqual([]);
    // The Plaid secret rides in the same failed request's headers.
    const secrets = [...accessTokens, publicToken, plaid.secret];
    // The capture works: every service that took part wrote lines.
    const services = new Set(lines.map((l) => (JSON.parse(l) as { service?: string }).service));
    expect([...services]).toEqual(expect.arrayContaining(['gateway', 'identity', 'banking']));
    expect(lines.length).toBeGreaterThan(10);
    const leaking = lines.filter((l) => secrets.some((s) => l.includes(s)));
    expect(leaking).toEqual([]);

    // At rest: sealed under a key id, not the token itself.
    const stored = await system.bankingDb!.adminDb('plaid_items').select('access_token', 'access_token_key_id');
    expect(stored.length).toBe(1);
    expect(stored[0].access_token_key_id).toBeTruthy();
    expect(secrets.some((s) => stored[0].access_token.includes(s))).toBe(false);
  });
});
