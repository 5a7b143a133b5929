import { createHash, randomBytes } from 'node:crypto';
import { AppError, ErrorKind, newId, withSystem, withTenant, assertCanEdit } from '@ledgerline/platform';
import Stripe from 'stripe';
import { codeProblem, redirectUriProblem, scopeProblem } from '../domain/stripe-input.js';
import { connections, objects, syncJobs, type ConnectionRow, type JobRow } from '../store/stripe-store.js';
import { applyEvent, type EventOutcome } from '../stripe/events.js';
import { verifyWebhook } from '../stripe/client.js';
import { EVENT_SCHEMA, OBJECT_TYPES, ProviderPayloadError, type ObjectType } from '../stripe/payloads.js';
import type { IntegrationsDeps, Tenant } from './context.js';
import type { StripeSyncScheduler } from './stripe-jobs.js';
import { reconcilePayouts } from './stripe-reconciliation.js';

export interface StripeAccountView {
  id: string;
  stripeAccountId: string;
  name: string;
  email: string;
  country: string;
  defaultCurrency: string;
  scope: string;
  connectedAt: Date;
  lastSyncedAt: Date | null;
}

export interface SyncStatusView {
  status: 'never' | JobRow['status'];
  job: JobRow | undefined;
  lastSyncedAt: Date | null;
  objects: Array<{ objectType: ObjectType; count: number }>;
}

const NOT_CONNECTED = 'No Stripe account is connected';

function invalid(field: string, problem: string | undefined): void {
  if (problem) throw AppError.invalid([{ field, message: problem }]);
}

const view = (row: ConnectionRow): StripeAccountView => ({
  id: row.id,
  stripeAccountId: row.stripe_account_id,
  name: row.account.name,
  email: row.account.email,
  country: row.account.country,
  defaultCurrency: row.account.defaultCurrency,
  scope: row.scope,
  connectedAt: row.connected_at,
  lastSyncedAt: row.last_synced_at,
});

/** Connect, sync, status, account and disconnect of the workspace's Stripe account; Stripe's webhooks. */
export class StripeIntegration {
  constructor(
    private readonly deps: IntegrationsDeps,
    private readonly scheduler: StripeSyncScheduler,
  ) {}

  oauthLink(tenant: Tenant, redirectUri: string): string {
    assertCanEdit(tenant, { callsWithoutRole: 'allow' });
    invalid('redirectUri', redirectUriProblem(redirectUri));
    const url = new URL('/oauth/authorize', this.deps.config.STRIPE_CONNECT_URL);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: this.deps.config.STRIPE_CLIENT_ID,
      scope: 'read_only',
      redirect_uri: redirectUri,
      state: randomBytes(16).toString('base64url'),
    }).toString();
    return url.toString();
  }

  async connect(tenant: Tenant, input: { scope: string; code: string }): Promise<{ account: StripeAccountView; job: JobRow }> {
    assertCanEdit(tenant, { callsWithoutRole: 'allow' });
    const problems = [
      { field: 'scope', message: scopeProblem(input.scope) },
      { field: 'code', message: codeProblem(input.code) },
    ].filter((p): p is { field: string; message: string } => p.message !== undefined);
    if (problems.length > 0) throw AppError.invalid(problems);
    const existing = await withTenant(this.deps.db, tenant, (trx) => connections.ofWorkspace(trx));
    if (existing) throw new AppError(ErrorKind.Conflict, 'A Stripe account is already connected; disconnect it first');

    const platform = this.deps.stripe();
    let token: Stripe.OAuthToken;
    try {
      // Idempotency keys derived from the operation (RELIABILITY 13): a retried exchange of one code is one exchange.
      token = await platform.oauth.token(
        { grant_type: 'authorization_code', code: input.code },
        { idempotencyKey: `oauth-token:${createHash('sha256').update(input.code).digest('hex').slice(0, 32)}` },
      );
    } catch (err) {
      if (err instanceof Stripe.errors.StripeInvalidGrantError || (err instanceof Stripe.errors.StripeError && err.statusCode === 400)) {
        throw AppError.invalid([{ field: 'code', message: 'The authorization code is invalid or was already used; connect again' }]);
      }
      throw new AppError(ErrorKind.Unavailable, 'Stripe could not be reached; try again', { cause: err });
    }
    const accountId = token.stripe_user_id ?? '';
    const accessToken = token.access_token ?? '';
    if (!/^acct_[A-Za-z0-9]{1,64}$/.test(accountId) || accessToken === '' || accessToken.length > 500) {
      throw new AppError(ErrorKind.Unavailable, 'Stripe answered the connection without an account; try again');
    }
    const account = await this.deps.stripe(accessToken).accounts.retrieveCurrent();
    const profile = {
      name: (account.business_profile?.name ?? account.settings?.dashboard?.display_name ?? '').slice(0, 200),
      email: (account.email ?? '').slice(0, 320),
      country: (account.country ?? '').slice(0, 2),
      defaultCurrency: (account.default_currency ?? '').slice(0, 3),
    };
    const sealed = this.deps.cipher.seal(accessToken, accountId);
    const result = await withTenant(this.deps.db, tenant, async (trx) => {
      const row = await connections.insert(trx, {
        id: newId(),
        workspace_id: tenant.workspaceId,
        stripe_account_id: accountId,
        access_token: sealed.ciphertext,
        access_token_key_id: sealed.keyId,
        scope: token.scope ?? input.scope,
        account: profile,
      });
      if (!row) return undefined;
      return { row, job: await this.scheduler.request(trx, row) };
    });
    if (!result) throw new AppError(ErrorKind.Conflict, 'This Stripe account is already connected to a workspace');
    await this.scheduler.publish(result.job);
    return { account: view(result.row), job: result.job };
  }

  private async connection(tenant: Tenant): Promise<ConnectionRow> {
    const row = await withTenant(this.deps.db, tenant, (trx) => connections.ofWorkspace(trx));
    if (!row) throw new AppError(ErrorKind.NotFound, NOT_CONNECTED);
    return row;
  }

  async sync(tenant: Tenant): Promise<JobRow> {
    assertCanEdit(tenant, { callsWithoutRole: 'allow' });
    const job = await withTenant(this.deps.db, tenant, async (trx) => {
      const row = await connections.ofWorkspace(trx);
      if (!row) throw new AppError(ErrorKind.NotFound, NOT_CONNECTED);
      return this.scheduler.request(trx, row);
    });
    await this.scheduler.publish(job);
    return job;
  }

  async syncStatus(tenant: Tenant): Promise<SyncStatusView> {
    return withTenant(this.deps.db, tenant, async (trx) => {
      const row = await connections.ofWorkspace(trx);
      if (!row) throw new AppError(ErrorKind.NotFound, NOT_CONNECTED);
      const job = await syncJobs.latest(trx, row.id);
      const counts = new Map((await objects.counts(trx, row.id)).map((c) => [c.object_type, Number(c.count)]));
      return {
        status: job?.status ?? 'never',
        job,
        lastSyncedAt: row.last_synced_at,
        objects: OBJECT_TYPES.map((objectType) => ({ objectType, count: counts.get(objectType) ?? 0 })),
      };
    });
  }

  async account(tenant: Tenant): Promise<StripeAccountView> {
    return view(await this.connection(tenant));
  }

  /** Deauthorizes the platform on the account (an account already deauthorized is fine), then forgets it. */
  async disconnect(tenant: Tenant): Promise<string> {
    assertCanEdit(tenant, { callsWithoutRole: 'allow' });
    const row = await this.connection(tenant);
    try {
      await this.deps
        .stripe()
        .oauth.deauthorize(
          { client_id: this.deps.config.STRIPE_CLIENT_ID, stripe_user_id: row.stripe_account_id },
          { idempotencyKey: `deauthorize:${row.id}` },
        );
    } catch (err) {
      if (!(err instanceof Stripe.errors.StripeError && (err.statusCode === 400 || err.statusCode === 401 || err.statusCode === 403))) {
        throw new AppError(ErrorKind.Unavailable, 'Stripe could not be reached; try again', { cause: err });
      }
    }
    await withTenant(this.deps.db, tenant, (trx) => connections.remove(trx, row.id));
    return row.stripe_account_id;
  }

  /**
   * A Stripe webhook: verified with the SDK over the raw body (bad or missing signature → 400, nothing stored),
   * validated, then applied once in the connected workspace (inbox by event id, newest state wins).
   */
  async webhook(body: Uint8Array, signature: string): Promise<EventOutcome> {
    if (body.length > 1_000_000) throw AppError.invalid([{ field: 'body', message: 'Webhook body is too large' }]);
    let event: unknown;
    try {
      event = verifyWebhook(body, signature, this.webhookSecrets(), this.deps.config.STRIPE_WEBHOOK_TOLERANCE_SECONDS);
    } catch {
      throw AppError.invalid([{ field: 'stripe-signature', message: 'Invalid Stripe signature' }]);
    }
    const parsed = EVENT_SCHEMA.safeParse(event);
    if (!parsed.success) throw AppError.invalid([{ field: 'body', message: `Invalid Stripe event: ${parsed.error.issues[0]?.path.join('.') ?? ''}` }]);
    const envelope = parsed.data;
    if (!envelope.account) return 'ignored'; // the platform's own events: nothing of a workspace
    const connection = await withSystem(this.deps.db, (trx) => connections.byStripeAccount(trx, envelope.account!));
    if (!connection) return 'ignored';
    try {
      return await withTenant(this.deps.db, { workspaceId: connection.workspace_id }, async (trx) => {
        const outcome = await applyEvent(trx, connection, envelope);
        // A payout that became paid may now meet its deposit (decision 0043).
        if (outcome === 'processed' && envelope.type.startsWith('payout.')) await reconcilePayouts(trx);
        return outcome;
      });
    } catch (err) {
      if (err instanceof ProviderPayloadError) throw AppError.invalid([{ field: 'body', message: err.message }]);
      throw err;
    }
  }

  private webhookSecrets(): string[] {
    return this.deps.config.STRIPE_WEBHOOK_SECRET.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  }
}
