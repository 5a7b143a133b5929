import type { Knex } from '@ledgerline/platform';
import type { CategorisationExample } from '../domain/categorisation.js';

/** How many of a workspace's latest examples the model reads for a job (older choices have been overtaken). */
export const EXAMPLE_WINDOW = 20_000;

export interface ExampleInput {
  transactionId: string;
  merchantName: string;
  description: string;
  amountCents: number;
  bankAccountId: string;
  categoryId: string;
  vendorId: string | null;
  categorizedAt: string;
}

/** Learns one example: a transaction categorised again replaces its earlier example and becomes the latest. */
export async function learnExample(trx: Knex.Transaction, workspaceId: string, e: ExampleInput): Promise<void> {
  await trx('categorisation_examples').where({ workspace_id: workspaceId, transaction_id: e.transactionId }).delete();
  await trx('categorisation_examples').insert({
    workspace_id: workspaceId,
    transaction_id: e.transactionId,
    merchant_name: e.merchantName,
    description: e.description,
    amount_cents: e.amountCents,
    bank_account_id: e.bankAccountId,
    category_id: e.categoryId,
    vendor_id: e.vendorId,
    categorized_at: e.categorizedAt,
  });
}

/** The workspace's latest examples (the tenant transaction's workspace), oldest first. */
export async function latestExamples(trx: Knex.Transaction): Promise<CategorisationExample[]> {
  const rows = (await trx('categorisation_examples').orderBy('seq', 'desc').limit(EXAMPLE_WINDOW)) as {
    merchant_name: string;
    description: string;
    amount_cents: string;
    bank_account_id: string;
    category_id: string;
    vendor_id: string | null;
    seq: string;
  }[];
  return rows.reverse().map((r) => ({
    merchantName: r.merchant_name,
    description: r.description,
    amountCents: Number(r.amount_cents),
    bankAccountId: r.bank_account_id,
    categoryId: r.category_id,
    vendorId: r.vendor_id,
    at: Number(r.seq),
  }));
}
