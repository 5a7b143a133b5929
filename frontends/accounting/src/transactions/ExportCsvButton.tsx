import { describeError, saveDownload, useGeneralLedgerCsv, useTransactionsCsv } from '@ledgerline/api';
import { type TransferFilter } from './transfers';
import { transactionsQuery, type TransactionFilters, type TransactionTab } from './filters';
import { Button, useErrorNotice } from '@ledgerline/ui';

/** "Export CSV" of the transactions list with the filters on screen, the transfer filter too (GET /transactions/csv; the server names the file). */
export function TransactionsExportButton({ tab, filters, transfer = '' }: { tab: TransactionTab; filters: TransactionFilters; transfer?: TransferFilter }) {
  const exporter = useTransactionsCsv();
  const showError = useErrorNotice(describeError);
  return (
    <Button
      size="sm"
      variant="secondary"
      className="whitespace-nowrap"
      loading={exporter.isPending}
      onClick={() =>
        exporter.mutate(transactionsQuery(tab, filters, transfer), {
          onSuccess: (file) => saveDownload(file.blob, file.fileName ?? 'transactions.csv'),
          onError: showError,
        })
      }
    >
      Export CSV
    </Button>
  );
}

/** "Export CSV" of the general ledger for the period on screen, or of the open account's lines (GET /general-ledger/csv). */
export function GeneralLedgerExportButton({ startDate, endDate, ledgerAccountId }: { startDate: string; endDate: string; ledgerAccountId: string | null }) {
  const exporter = useGeneralLedgerCsv();
  const showError = useErrorNotice(describeError);
  return (
    <Button
      size="sm"
      variant="secondary"
      className="whitespace-nowrap"
      loading={exporter.isPending}
      onClick={() =>
        exporter.mutate(
          { startDate, endDate, ledgerAccountId },
          { onSuccess: (file) => saveDownload(file.blob, file.fileName ?? 'general-ledger.csv'), onError: showError },
        )
      }
    >
      Export CSV
    </Button>
  );
}
