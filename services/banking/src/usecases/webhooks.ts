import { AppError, ErrorKind, withSystem, withTenant } from '@ledgerline/platform';
import { z } from 'zod';
import { WebhookVerificationError, type PlaidWebhookVerifier } from '../plaid/webhook.js';
import { accounts, items, webhooks } from '../store/banking-store.js';
import type { JobRow } from '../store/rows.js';
import type { BankingDeps } from './context.js';
import { reconnectRequiredEvent } from './events.js';
import type { JobScheduler } from './jobs.js';

const webhookBody = z.object({
  webhook_type: z.string().max(100),
  webhook_code: z.string().max(100),
  item_id: z.string().max(256).optional(),
  error: z
    .object({ error_code: z.string().max(100).optional() })
    .nullable()
    .optional(),
});

export type WebhookOutcome = 'sync_enqueued' | 'reconnect_required' | 'duplicate' | 'ignored';

/** Plaid webhooks: verified, recorded (a replay is a no-op), then a debounced sync or a reconnect flag. */
export class WebhookUseCases {
  constructor(
    private readonly deps: BankingDeps,
    private readonly scheduler: JobScheduler,
    private readonly verifier: PlaidWebhookVerifier,
  ) {}

  async handle(rawBody: Uint8Array, verification: string): Promise<WebhookOutcome> {
    let tokenHash: Buffer;
    try {
      tokenHash = await this.verifier.verify(rawBody, verification);
    } catch (err) {
      if (err instanceof WebhookVerificationError) {
        this.deps.logger.warn({ reason: err.message }, 'Plaid webhook refused');
        throw new AppError(ErrorKind.Unauthenticated, 'Webhook verification failed', { appErrorCode: 'WEBHOOK_UNVERIFIED' });
      }
      throw err;
    }
    let body: z.infer<typeof webhookBody>;
    try {
      body = webhookBody.parse(JSON.parse(new TextDecoder().decode(rawBody)));
    } catch {
      throw AppError.invalid([{ field: 'body', message: 'Webhook body is not a Plaid webhook' }]);
    }
    const itemId = body.item_id ?? '';
    const relogin =
      body.webhook_type === 'ITEM' &&
      (body.webhook_code === 'PENDING_EXPIRATION' ||
        body.webhook_code === 'PENDING_DISCONNECT' ||
        (body.webhook_code === 'ERROR' && body.error?.error_code === 'ITEM_LOGIN_REQUIRED'));
    const syncs =
      body.webhook_type === 'TRANSACTIONS' && ['SYNC_UPDATES_AVAILABLE', 'DEFAULT_UPDATE', 'INITIAL_UPDATE', 'HISTORICAL_UPDATE'].includes(body.webhook_code);

    const result = await withSystem(this.deps.db, async (trx) => {
      const fresh = await webhooks.record(trx, { token_sha256: tokenHash, webhook_type: body.webhook_type, webhook_code: body.webhook_code, item_id: itemId });
      if (!fresh) return { outcome: 'duplicate' as const };
      const item = itemId ? await items.byItemId(trx, itemId) : undefined;
      return { outcome: 'fresh' as const, item };
    });
    if (result.outcome === 'duplicate') return 'duplicate';
    const item = result.item;
    if (!item || item.status === 'removed') return 'ignored';
    const tenant = { workspaceId: item.workspace_id };

    if (relogin) {
      await withTenant(this.deps.db, tenant, async (trx) => {
        await reconnectRequiredEvent(trx, item, body.error?.error_code ?? body.webhook_code);
        await items.update(trx, item.id, { status: 'login_required' });
        await accounts.markItem(trx, item.id, { reconnect_required: true });
      });
      return 'reconnect_required';
    }
    if (syncs || (body.webhook_type === 'ITEM' && body.webhook_code === 'LOGIN_REPAIRED')) {
      const job: JobRow = await withTenant(this.deps.db, tenant, (trx) =>
        this.scheduler.requestSync(trx, {
          workspaceId: item.workspace_id,
          plaidItemId: item.id,
          reason: 'webhook',
          delayMs: this.deps.config.WEBHOOK_SYNC_DELAY_MS,
        }),
      );
      await this.scheduler.publish(job);
      return 'sync_enqueued';
    }
    return 'ignored';
  }
}
