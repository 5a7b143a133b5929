// The two ways the browser completes a bank link (frontends/shell/src/config.ts PlaidWebConfig): the local
// Plaid sandbox's development flow, and Plaid Link from cdn.plaid.com. Both end in what Plaid Link's onSuccess
// receives, which becomes the POST /accounts body (spec §3 Bank account link).
import type { LinkAccountsBody } from '@ledgerline/api';

export interface LinkedAccountMetadata {
  id: string;
  name: string;
  mask: string;
  type: string;
  subtype: string;
}

/** Plaid Link's onSuccess arguments, reduced to what the product sends. */
export interface LinkSuccess {
  publicToken: string;
  institution: { name: string; institution_id: string } | null;
  accounts: LinkedAccountMetadata[];
}

export function linkAccountsBody(success: LinkSuccess, ignoreDuplicateAccounts: boolean): LinkAccountsBody {
  return { publicToken: success.publicToken, accounts: success.accounts, institution: success.institution, ignoreDuplicateAccounts };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Link's `(public_token, metadata)` as the product uses them; Plaid sends null for a missing mask or subtype. */
export function parseLinkSuccess(publicToken: unknown, metadata: unknown): LinkSuccess {
  if (typeof publicToken !== 'string' || publicToken === '' || !isRecord(metadata)) throw new Error('Plaid Link returned no public token');
  const institution = isRecord(metadata.institution)
    ? { name: text(metadata.institution.name), institution_id: text(metadata.institution.institution_id) }
    : null;
  const accounts = (Array.isArray(metadata.accounts) ? metadata.accounts : []).filter(isRecord).map((a) => ({
    id: text(a.id),
    name: text(a.name),
    mask: text(a.mask),
    type: text(a.type),
    subtype: text(a.subtype),
  }));
  return { publicToken, institution, accounts };
}

// ── The local Plaid sandbox (development and tests) ──────────────────────────────────────────────────

export interface SandboxInstitution {
  institutionId: string;
  name: string;
  primaryColor: string;
  accounts: { name: string; mask: string; kind: string }[];
}

async function sandboxCall(sandboxUrl: string, path: string, init: RequestInit, fetchFn: typeof fetch): Promise<unknown> {
  let response: Response;
  try {
    response = await fetchFn(`${sandboxUrl}${path}`, init);
  } catch {
    throw new Error(`The Plaid sandbox at ${sandboxUrl} could not be reached`);
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const message = isRecord(body) && typeof body.error === 'string' ? body.error : `answered ${response.status}`;
    throw new Error(`The Plaid sandbox: ${message}`);
  }
  return body;
}

const globalFetch: typeof fetch = (input, init) => globalThis.fetch(input, init);

/** GET /ledgerline/institutions: the sandbox's sample banks and their accounts. */
export async function fetchSandboxInstitutions(sandboxUrl: string, signal?: AbortSignal, fetchFn: typeof fetch = globalFetch): Promise<SandboxInstitution[]> {
  const body = await sandboxCall(sandboxUrl, '/ledgerline/institutions', { signal: signal ?? null }, fetchFn);
  const list = isRecord(body) && Array.isArray(body.institutions) ? body.institutions : [];
  return list.filter(isRecord).map((i) => ({
    institutionId: text(i.institutionId),
    name: text(i.name),
    primaryColor: text(i.primaryColor),
    accounts: (Array.isArray(i.accounts) ? i.accounts : []).filter(isRecord).map((a) => ({ name: text(a.name), mask: text(a.mask), kind: text(a.kind) })),
  }));
}

/**
 * POST /ledgerline/link/complete: the sandbox plays the user's part in Plaid Link. With a new-link token it
 * creates an item of `institutionId`; with an update-mode token it repairs that item's login.
 */
export async function completeSandboxLink(
  sandboxUrl: string,
  input: { linkToken: string; institutionId?: string },
  fetchFn: typeof fetch = globalFetch,
): Promise<LinkSuccess> {
  const body = await sandboxCall(
    sandboxUrl,
    '/ledgerline/link/complete',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ link_token: input.linkToken, ...(input.institutionId ? { institution_id: input.institutionId } : {}) }),
    },
    fetchFn,
  );
  if (!isRecord(body)) throw new Error('The Plaid sandbox answered no link result');
  return parseLinkSuccess(body.public_token, body.metadata);
}

// ── Plaid Link (production configuration) ────────────────────────────────────────────────────────────

export const PLAID_LINK_SCRIPT_URL = 'https://cdn.plaid.com/link/v2/stable/link-initialize.js';

interface PlaidLinkHandler {
  open: () => void;
  destroy: () => void;
}

interface PlaidGlobal {
  create: (options: {
    token: string;
    onSuccess: (publicToken: string, metadata: unknown) => void;
    onExit: (error: unknown, metadata: unknown) => void;
  }) => PlaidLinkHandler;
}

let scriptLoading: Promise<PlaidGlobal> | null = null;

function plaidGlobal(): PlaidGlobal | undefined {
  return (window as unknown as { Plaid?: PlaidGlobal }).Plaid;
}

/** Loads Plaid's link-initialize.js once per page. */
export function loadPlaidLink(): Promise<PlaidGlobal> {
  const loaded = plaidGlobal();
  if (loaded) return Promise.resolve(loaded);
  scriptLoading ??= new Promise<PlaidGlobal>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = PLAID_LINK_SCRIPT_URL;
    script.async = true;
    script.onload = () => {
      const plaid = plaidGlobal();
      if (plaid) resolve(plaid);
      else reject(new Error('Plaid Link did not load'));
    };
    script.onerror = () => {
      scriptLoading = null;
      script.remove();
      reject(new Error('Plaid Link could not be loaded'));
    };
    document.head.appendChild(script);
  });
  return scriptLoading;
}

/**
 * Opens Plaid Link with the token; resolves with its result, or null when the user closed it. `cancel`
 * closes it from our side (the page went away).
 */
export function openPlaidLink(token: string): { result: Promise<LinkSuccess | null>; cancel: () => void } {
  let handler: PlaidLinkHandler | null = null;
  let cancelled = false;
  const result = loadPlaidLink().then(
    (plaid) =>
      new Promise<LinkSuccess | null>((resolve, reject) => {
        if (cancelled) {
          resolve(null);
          return;
        }
        handler = plaid.create({
          token,
          onSuccess: (publicToken, metadata) => {
            try {
              resolve(parseLinkSuccess(publicToken, metadata));
            } catch (error) {
              reject(error instanceof Error ? error : new Error('Plaid Link failed'));
            }
          },
          onExit: () => resolve(null),
        });
        handler.open();
      }),
  );
  return {
    result,
    cancel: () => {
      cancelled = true;
      handler?.destroy();
    },
  };
}
