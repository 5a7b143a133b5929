/**
 * The ingest part of the ledger bench alone: `BENCH_LEDGER_TRANSACTIONS` bank_transaction.added through
 * the consumer on a fresh ledger (`LEDGER_CONSUMER_CONCURRENCY`, default 4; `LEDGER_INGEST_BATCH`).
 * npx tsx --conditions=ledgerline-source services/ledger/bench/ingest-only.ts
 */
import { harness, ingest } from './ledger-bench.js';

const n = Number(process.env.BENCH_LEDGER_TRANSACTIONS ?? 5_000);
const h = await harness(Number(process.env.LEDGER_CONSUMER_CONCURRENCY ?? 4));
try {
  const r = await ingest(h, h.tenant(), n);
  process.stdout.write(
    `${JSON.stringify({ ...r, concurrency: process.env.LEDGER_CONSUMER_CONCURRENCY ?? '4', batch: process.env.LEDGER_INGEST_BATCH ?? '(default)' })}\n`,
  );
} finally {
  await h.close();
}
process.exit(0);
