// Plan limits where they bite, on the test system (identity, billing, banking; the Stripe and Plaid sandboxes):
// on the Startup plan (3 bank accounts, reached through checkout and its signed webhooks) a link of three accounts
// passes, the fourth account is refused with 409 naming the plan and the upgrade link, nothing of it is stored;
// after an upgrade to Growth (unlimited) the same link passes. Users per plan: Startup's single user refuses an
// invite, AI Accounting's unlimited users let it through. Banking and identity learn the plan from billing.plan_changed.
import { expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardBody, signedUpUser, startSystem, uniqueEmail, type System } from '../support/system.js';

const PLATYPUS = 'ins_109508'; // checking, savings and a credit card

let system: System;

beforeAll(async () => {
  system = await startSystem({ billing: true, banking: true });
});
afterAll(async () => system?.stop());

async function subscribe(token: string, priceId: string, planId: string): Promise<void> {
  const checkout = await system.api('POST', `/checkout?priceId=${priceId}`, { token });
  expect(checkout.status).toBe(200);
  system.stripe!.completeCheckout(checkout.body.sessionId, 'paid');
  await expectEventually(async () =>
    expect((await system.api('GET', '/subscription/verify', { token })).body).toMatchObject({ status: 'active', plan: { id: planId } }),
  );
}

/** Plaid Link in the sandbox, then POST /accounts with the item's first `count` accounts. */
async function link(token: string, institutionId: string, count: number) {
  const plaid = system.plaid!;
  const publicToken = plaid.createPublicToken({
    institution_id: institutionId,
    initial_products: ['transactions'],
    options: { ledgerline: { transactions: 5, seed: 3, initial_webhook: false } },
  });
  const item = plaid.listItems().at(-1)!;
  const institution = plaid.institutions().find((i) => i.institutionId === institutionId)!;
  const accounts = item.accounts.slice(0, count).map((a) => ({
    id: a.account_id,
    name: a.name,
    mask: a.mask,
    type: a.subtype === 'credit card' ? 'credit' : 'depository',
    subtype: a.subtype,
  }));
  expect(accounts).toHaveLength(count);
  return system.api('POST', '/accounts', {
    token,
    body: { publicToken, accounts, institution: { name: institution.name, institution_id: institution.institutionId }, ignoreDuplicateAccounts: true },
  });
}

describe('bank accounts per plan', () => {
  it('refuses the fourth bank account on the 3-account Startup plan with an upgrade link; Growth lets it in', async () => {
    const { token, user } = await signedUpUser(system);
    expect((await system.api('POST', '/onboard-user', { token, body: onboardBody })).status).toBe(200);
    await subscribe(token, 'price_ledgerline_startup_monthly', 'startup');
    // Banking's copy of the limits arrives by event.
    await expectEventually(async () =>
      expect(await system.databases.banking!.adminDb('workspace_plans').select('plan_id', 'bank_accounts')).toEqual([{ plan_id: 'startup', bank_accounts: 3 }]),
    );

    const three = await link(token, PLATYPUS, 3);
    expect(three.status).toBe(200);
    expect(three.body.accounts).toHaveLength(3);

    const other = system.plaid!.institutions().find((i) => i.institutionId !== PLATYPUS)!.institutionId;
    const fourth = await link(token, other, 1);
    expect(fourth.status).toBe(409);
    expect(fourth.body.message).toBe('Your Startup plan allows 3 bank accounts. Upgrade your plan to add more: /settings?tab=billing');
    expect(fourth.body.errors.map((e: { field: string }) => e.field)).toEqual(['accounts']);
    expect((await system.api('GET', '/accounts', { token })).body.accounts).toHaveLength(3);

    await subscribe(token, 'price_ledgerline_growth_monthly', 'growth');
    await expectEventually(async () =>
      expect(await system.databases.banking!.adminDb('workspace_plans').select('plan_id', 'bank_accounts')).toEqual([{ plan_id: 'growth', bank_accounts: -1 }]),
    );
    // The Startup subscription the upgrade replaced is cancelled at Stripe; its cancellation leaves Growth in force.
    const subs = system.stripe!.platformObjects('subscription').filter((s) => (s.metadata as { workspaceId?: string }).workspaceId === user.workspace.id);
    await expectEventually(() =>
      expect(subs.map((s) => [(s.items as { data: Array<{ price: { id: string } }> }).data[0]!.price.id, s.status])).toEqual([
        ['price_ledgerline_startup_monthly', 'canceled'],
        ['price_ledgerline_growth_monthly', 'active'],
      ]),
    );
    await expectEventually(async () =>
      expect(await system.databases.billing!.adminDb('billing_subscriptions').where({ status: 'canceled', plan_id: 'startup' }).select('workspace_id')).toEqual(
        [{ workspace_id: user.workspace.id }],
      ),
    );
    expect((await system.api('GET', '/subscription/verify', { token })).body).toMatchObject({ status: 'active', plan: { id: 'growth' } });
    const afterUpgrade = await link(token, other, 1);
    expect(afterUpgrade.status).toBe(200);
    expect((await system.api('GET', '/accounts', { token })).body.accounts).toHaveLength(4);
  });
});

describe('users per plan', () => {
  it("refuses an invite past the Startup plan's single user with an upgrade link; AI Accounting lets it through", async () => {
    const { token, user } = await signedUpUser(system);
    expect((await system.api('POST', '/onboard-user', { token, body: onboardBody })).status).toBe(200);
    await subscribe(token, 'price_ledgerline_startup_monthly', 'startup');
    const identityPlans = () => system.db.adminDb('workspace_plans').where({ workspace_id: user.workspace.id }).select('plan_id', 'users');
    await expectEventually(async () => expect(await identityPlans()).toEqual([{ plan_id: 'startup', users: 1 }]));

    const invite = () =>
      system.api('POST', '/send-invite', {
        token,
        workspace: user.workspace.id,
        body: { email: uniqueEmail('teammate'), role: 'Admin', firstName: 'Team', lastName: 'Mate' },
      });
    const refused = await invite();
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Your Startup plan allows 1 user. Upgrade your plan to add more: /settings?tab=billing');
    expect(refused.body.errors.map((e: { field: string }) => e.field)).toEqual(['email']);
    expect((await system.api('GET', '/invites', { token, workspace: user.workspace.id })).body.invites ?? []).toEqual([]);

    await subscribe(token, 'price_ledgerline_ai_accounting_monthly', 'ai_accounting');
    await expectEventually(async () => expect(await identityPlans()).toEqual([{ plan_id: 'ai_accounting', users: -1 }]));
    const sent = await invite();
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  });
});
