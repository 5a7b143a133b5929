import { describe, expect, it } from 'vitest';
import { parseRuntimeConfig } from '../src/config';
import { completeSandboxLink, fetchSandboxInstitutions, linkAccountsBody, parseLinkSuccess } from '../src/banking/link';

describe('runtime config: plaid', () => {
  const base = {
    apiUrl: 'http://localhost:4000',
    remotes: {
      settings: 'http://localhost:3001/mf-manifest.json',
      accounting: 'http://localhost:3002/mf-manifest.json',
      reports: 'http://localhost:3003/mf-manifest.json',
    },
  };

  it('reads the sandbox and production modes, and no plaid section as not configured', () => {
    expect(parseRuntimeConfig({ ...base, plaid: { mode: 'sandbox', sandboxUrl: 'http://localhost:8090/' } }).plaid).toEqual({
      mode: 'sandbox',
      sandboxUrl: 'http://localhost:8090',
    });
    expect(parseRuntimeConfig({ ...base, plaid: { mode: 'production', env: 'production' } }).plaid).toEqual({ mode: 'production', env: 'production' });
    expect(parseRuntimeConfig({ ...base, plaid: { mode: 'production' } }).plaid).toEqual({ mode: 'production' });
    expect(parseRuntimeConfig(base).plaid).toBeNull();
  });

  it('refuses a plaid section it cannot use', () => {
    expect(() => parseRuntimeConfig({ ...base, plaid: { mode: 'sandbox' } })).toThrow(/plaid/);
    expect(() => parseRuntimeConfig({ ...base, plaid: { mode: 'development' } })).toThrow(/plaid/);
  });
});

describe('Plaid Link results', () => {
  it("become the POST /accounts body; Plaid's nulls become empty strings", () => {
    const success = parseLinkSuccess('public-sandbox-abc', {
      institution: { name: 'First Platypus Bank', institution_id: 'ins_109508' },
      accounts: [
        { id: 'acc-1', name: 'Plaid Checking', mask: '0000', type: 'depository', subtype: 'checking', verification_status: null },
        { id: 'acc-2', name: 'Other', mask: null, type: 'other', subtype: null },
      ],
      link_session_id: 'x',
    });
    expect(linkAccountsBody(success, false)).toEqual({
      publicToken: 'public-sandbox-abc',
      institution: { name: 'First Platypus Bank', institution_id: 'ins_109508' },
      accounts: [
        { id: 'acc-1', name: 'Plaid Checking', mask: '0000', type: 'depository', subtype: 'checking' },
        { id: 'acc-2', name: 'Other', mask: '', type: 'other', subtype: '' },
      ],
      ignoreDuplicateAccounts: false,
    });
    expect(parseLinkSuccess('p', { institution: null, accounts: [] }).institution).toBeNull();
    expect(() => parseLinkSuccess(undefined, {})).toThrow(/public token/);
  });
});

describe('the Plaid sandbox link flow', () => {
  function sandbox(answer: (url: string, init?: RequestInit) => Response) {
    const calls: { url: string; body: unknown }[] = [];
    const fetchFn: typeof fetch = (input, init) => {
      calls.push({ url: String(input), body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined });
      return Promise.resolve(answer(String(input), init));
    };
    return { calls, fetchFn };
  }
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  it('lists the institutions', async () => {
    const s = sandbox(() =>
      json(200, {
        institutions: [
          {
            institutionId: 'ins_109508',
            name: 'First Platypus Bank',
            primaryColor: '#1f1f1f',
            accounts: [{ key: 'checking-0000', kind: 'checking', name: 'Plaid Checking', mask: '0000' }],
          },
        ],
      }),
    );
    const list = await fetchSandboxInstitutions('http://sandbox.test', undefined, s.fetchFn);
    expect(s.calls[0]?.url).toBe('http://sandbox.test/ledgerline/institutions');
    expect(list).toEqual([
      {
        institutionId: 'ins_109508',
        name: 'First Platypus Bank',
        primaryColor: '#1f1f1f',
        accounts: [{ name: 'Plaid Checking', mask: '0000', kind: 'checking' }],
      },
    ]);
  });

  it("completes a link with the link token and the chosen institution, answering Link's onSuccess arguments", async () => {
    const s = sandbox(() =>
      json(200, {
        public_token: 'public-sandbox-1',
        metadata: {
          institution: { name: 'First Platypus Bank', institution_id: 'ins_109508' },
          accounts: [{ id: 'a', name: 'Plaid Checking', mask: '0000', type: 'depository', subtype: 'checking' }],
        },
      }),
    );
    const success = await completeSandboxLink('http://sandbox.test', { linkToken: 'link-sandbox-1', institutionId: 'ins_109508' }, s.fetchFn);
    expect(s.calls[0]).toEqual({ url: 'http://sandbox.test/ledgerline/link/complete', body: { link_token: 'link-sandbox-1', institution_id: 'ins_109508' } });
    expect(success.publicToken).toBe('public-sandbox-1');
    expect(success.accounts).toHaveLength(1);
  });

  it('completes an update-mode link with the token alone', async () => {
    const s = sandbox(() => json(200, { public_token: 'public-sandbox-2', metadata: { institution: null, accounts: [] } }));
    await completeSandboxLink('http://sandbox.test', { linkToken: 'link-sandbox-update' }, s.fetchFn);
    expect(s.calls[0]?.body).toEqual({ link_token: 'link-sandbox-update' });
  });

  it('says what the sandbox refused, and when it cannot be reached', async () => {
    const refused = sandbox(() => json(404, { error: 'unknown link_token' }));
    await expect(completeSandboxLink('http://sandbox.test', { linkToken: 'x' }, refused.fetchFn)).rejects.toThrow('The Plaid sandbox: unknown link_token');
    const down: typeof fetch = () => Promise.reject(new TypeError('fetch failed'));
    await expect(fetchSandboxInstitutions('http://sandbox.test', undefined, down)).rejects.toThrow(
      'The Plaid sandbox at http://sandbox.test could not be reached',
    );
  });
});
