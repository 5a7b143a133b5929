// The Receipt Matching tab's own rules (spec documents-parties-integrations §2 tab receipt-matching, §3 Receipt or
// document upload; platform-core §3 receiptStatus; issue #19 item 4; decision 0029): the URL, a receipt's row, the
// candidates the Match dialog lists. Pure, tested in test/receipts-state.test.ts.
import {
  RECEIPT_STATUSES,
  type ReceiptStatus,
  type Transaction,
  type UploadMatchSuggestion,
  type UploadTransactionSummary,
  type WorkspaceUpload,
} from '@ledgerline/api';

/** What the tab calls each receiptStatus. */
export const RECEIPT_STATUS_LABELS: Readonly<Record<ReceiptStatus, string>> = { matched: 'Matched', review: 'To review', unmatched: 'Unmatched' };
/** Whether a value (from the URL, or an upload the server answered) is a receiptStatus the filter offers. */
export const isReceiptStatus = (v: string): v is ReceiptStatus => (RECEIPT_STATUSES as readonly string[]).includes(v);

export const RECEIPTS_TAB = 'receipt-matching';

export interface ReceiptsScreen {
  /** `filter`: one receiptStatus value, or '' for every receipt. */
  status: ReceiptStatus | '';
  /** `rec`: the receipt whose Match dialog is open. */
  matching: string | null;
}

export function receiptsScreenFromSearch(params: URLSearchParams): ReceiptsScreen {
  const filter = params.get('filter') ?? '';
  return { status: isReceiptStatus(filter) ? filter : '', matching: params.get('rec') || null };
}

export function receiptsSearch(latest: URLSearchParams, screen: ReceiptsScreen): URLSearchParams {
  const next = new URLSearchParams({ tab: latest.get('tab') ?? RECEIPTS_TAB });
  if (screen.status) next.set('filter', screen.status);
  if (screen.matching) next.set('rec', screen.matching);
  return next;
}

export const STATUS_FILTER_OPTIONS: readonly { value: ReceiptStatus | ''; label: string }[] = [
  { value: '', label: 'All receipts' },
  { value: 'matched', label: RECEIPT_STATUS_LABELS.matched },
  { value: 'review', label: RECEIPT_STATUS_LABELS.review },
  { value: 'unmatched', label: RECEIPT_STATUS_LABELS.unmatched },
];

export interface ReceiptRow {
  id: string;
  fileName: string;
  isImage: boolean;
  merchant: string;
  date: string;
  amount: number | null;
  status: ReceiptStatus;
  statusLabel: string;
  /** 'Matched automatically' / 'Matched by hand' / 'N suggested' / 'Reading…' / ''. */
  statusNote: string;
  /** The bulk-upload job has not read the file yet. */
  reading: boolean;
  matched: UploadTransactionSummary | null;
  matchedOn: string;
}

/** A receipt as the table shows it. */
export function receiptRow(u: WorkspaceUpload): ReceiptRow {
  const status: ReceiptStatus = isReceiptStatus(u.receiptStatus) ? u.receiptStatus : 'unmatched';
  const suggestions = u.suggestions?.length ?? 0;
  const reading = u.readStatus !== 'read';
  const note =
    status === 'matched'
      ? u.matchedBy === 'auto'
        ? 'Matched automatically'
        : 'Matched by hand'
      : reading
        ? 'Reading…'
        : status === 'review'
          ? `${suggestions} suggested`
          : '';
  return {
    id: u.id,
    fileName: u.fileName,
    isImage: u.contentType.startsWith('image/'),
    merchant: u.merchantName ?? '',
    date: u.dateTime ?? '',
    amount: u.amount ?? null,
    status,
    statusLabel: RECEIPT_STATUS_LABELS[status],
    statusNote: note,
    reading,
    matched: u.matchedTransaction ?? null,
    matchedOn: u.matchedOn ?? '',
  };
}

/** What a person recognises a bank transaction by, in the dialog and the table. */
export interface Candidate {
  id: string;
  date: string;
  description: string;
  /** Signed as the bank reports it: < 0 money out. */
  amount: number;
  /** 0–1 when the server suggested it. */
  confidence: number | null;
  reasons: readonly string[];
}

const fromSuggestion = (s: UploadMatchSuggestion): Candidate | null =>
  s.transaction
    ? {
        id: s.transaction.id,
        date: s.transaction.dateTime,
        description: s.transaction.merchantName || s.transaction.memo || 'Bank transaction',
        amount: s.transaction.amount,
        confidence: s.confidence,
        reasons: s.reasons,
      }
    : null;
const fromTransaction = (t: Transaction): Candidate => ({
  id: t.id,
  date: t.dateTime.slice(0, 10),
  description: t.biller?.name || t.memo || 'Bank transaction',
  amount: t.amount,
  confidence: null,
  reasons: [],
});

/**
 * The Match dialog's list: the server's suggestions first (best first), then the transactions found, each once; the
 * transaction the receipt is matched to now is left out. With a search, only the suggestions whose description holds
 * it stay on top.
 */
export function matchCandidates(u: WorkspaceUpload, found: readonly Transaction[], search: string): Candidate[] {
  const q = search.trim().toLowerCase();
  const current = u.matchedTransaction?.id ?? null;
  const suggested = (u.suggestions ?? [])
    .map(fromSuggestion)
    .filter((c): c is Candidate => c !== null && c.id !== current && (q === '' || c.description.toLowerCase().includes(q)))
    .sort((a, b) => (b.confidence ?? 0) - (a.confidence ?? 0));
  const seen = new Set(suggested.map((c) => c.id));
  const rest = found.filter((t) => t.id !== current && !seen.has(t.id)).map(fromTransaction);
  return [...suggested, ...rest];
}

/** A transaction's amount as a person reads it on a receipt's row: money out shown as spent (−$12.50). */
export const signedMoney = (amount: number, format: (n: number) => string): string => (amount < 0 ? `−${format(-amount)}` : format(amount));

/** The edit form's checks before the PATCH (the server checks again and names the field). */
export function validateReceiptEdit(f: { merchantName: string; dateTime: string }): Partial<Record<'merchantName' | 'dateTime', string>> {
  const errors: Partial<Record<'merchantName' | 'dateTime', string>> = {};
  if (f.merchantName.trim().length > 200) errors.merchantName = 'Merchant must be at most 200 characters';
  if (f.merchantName.trim() === '' && f.dateTime === '') errors.merchantName = 'Enter a merchant or a date';
  return errors;
}
