import { withSystem } from '@ledgerline/platform';
import { items } from '../store/banking-store.js';
import type { BankingDeps } from './context.js';

const BATCH = 100;

/**
 * Seals every Plaid access token still in plain text (rows from before encryption) or under an older key
 * again under the current key of PLAID_TOKEN_KEYS. Runs when the service starts, across workspaces (the
 * system role), in batches whose rows other replicas skip; answers how many it resealed.
 */
export async function resealTokens(deps: Pick<BankingDeps, 'db' | 'tokens' | 'logger'>): Promise<number> {
  let total = 0;
  for (;;) {
    const done = await withSystem(deps.db, async (trx) => {
      const rows = await items.stale(trx, deps.tokens.currentKeyId, BATCH);
      for (const row of rows) await items.reseal(trx, row.id, deps.tokens.seal(deps.tokens.open(row, row.item_id), row.item_id));
      return rows.length;
    });
    total += done;
    if (done < BATCH) break;
  }
  if (total > 0) deps.logger.info({ resealed: total, keyId: deps.tokens.currentKeyId }, 'Plaid access tokens sealed under the current key');
  return total;
}
