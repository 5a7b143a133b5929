import {
  UPLOAD_EXTENSIONS,
  UPLOAD_MAX_BYTES,
  UPLOAD_MAX_FILES,
  describeError,
  useApiClient,
  useMatchUpload,
  useUpdateUpload,
  useUploadFiles,
  useUploadList,
  uploadsApi,
  type ReceiptStatus,
  type WorkspaceUpload,
} from '@ledgerline/api';
import {
  AmountInput,
  Button,
  DatePicker,
  DropZone,
  Select,
  Spinner,
  TextField,
  cx,
  formatMoney,
  formatShortDate,
  parseAmount,
  todayIso,
  useErrorNotice,
  useNotice,
  useSearchWriter,
} from '@ledgerline/ui';
import { useState, type MouseEvent } from 'react';
import { DialogMessage, EditorDialog, PartyDialog } from '../parties/common';
import { ListToolbar, RecordList, type RecordColumn } from '../records/RecordList';
import { uniqueRows } from '../parties/state';
import { useEditAccess } from '../transactions/access';
import { TransactionSearchField, useTransactionSearch } from '../transactions/TransactionPicker';
import {
  STATUS_FILTER_OPTIONS,
  matchCandidates,
  receiptRow,
  receiptsScreenFromSearch,
  receiptsSearch,
  signedMoney,
  validateReceiptEdit,
  type Candidate,
  type ReceiptsScreen,
} from './state';

const STATUS_STYLE: Readonly<Record<ReceiptStatus, string>> = {
  matched: 'bg-emerald-50 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200',
  review: 'bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-100',
  unmatched: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200',
};

/**
 * Accounting → Receipt Matching (spec §2 `?tab=receipt-matching`; issue #19 item 4; decision 0029): upload receipts
 * (the shared drop zone, uploadType receipt), the receipts with what was read off them and their match — automatic or
 * by hand — filtered by receiptStatus (`filter`), Match (`rec` opens its dialog: suggestions first, then any bank
 * transaction found by a search) and edit of merchant, date and amount.
 */
export function ReceiptMatchingTab() {
  const [params, writeSearch] = useSearchWriter();
  const screen = receiptsScreenFromSearch(params);
  const go = (next: Partial<ReceiptsScreen>) => writeSearch((latest) => receiptsSearch(latest, { ...receiptsScreenFromSearch(latest), ...next }));
  const list = useUploadList('receipt', screen.status ? [screen.status] : []);
  const uploadFiles = useUploadFiles();
  const access = useEditAccess();
  const notice = useNotice();
  const [editing, setEditing] = useState<WorkspaceUpload | null>(null);
  const rows = uniqueRows(list.data?.pages);
  const matching = screen.matching === null ? null : (rows.find((u) => u.id === screen.matching) ?? null);

  return (
    <section aria-label="Receipt matching">
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
        Upload receipts: each is read for its merchant, date and total and matched to the bank transaction it explains. Confident matches are made for you;
        match the rest by hand.
      </p>
      <DropZone
        label="Upload receipts"
        className="mb-4"
        extensions={UPLOAD_EXTENSIONS}
        maxBytes={UPLOAD_MAX_BYTES}
        maxFiles={UPLOAD_MAX_FILES}
        disabled={!access.canEdit}
        disabledReason={access.reason}
        describeFailure={(e) => describeError(e)?.message ?? null}
        upload={async (files, onProgress) =>
          (await uploadFiles.mutateAsync({ kind: 'receipt', files, onProgress, idempotencyKey: crypto.randomUUID() })).results
        }
        onSettled={({ uploaded }) => {
          if (uploaded > 0)
            notice.success(
              uploaded === 1 ? 'Receipt uploaded: it is being read and matched' : `${uploaded} receipts uploaded: they are being read and matched`,
            );
        }}
      />
      <ListToolbar
        filters={
          <Select<ReceiptStatus | ''>
            label="Status"
            name="filter"
            className="w-full sm:w-44"
            options={STATUS_FILTER_OPTIONS}
            value={screen.status}
            onChange={(status) => go({ status, matching: null })}
          />
        }
      />
      <RecordList<WorkspaceUpload>
        label="Receipts"
        list={list}
        columns={receiptColumns(access, (id) => go({ matching: id }), setEditing)}
        rowLabel={(u) => `Receipt ${u.fileName}`}
        tall
        empty={{
          title: screen.status ? `No ${STATUS_FILTER_OPTIONS.find((o) => o.value === screen.status)?.label.toLowerCase()} receipts` : 'No receipts yet',
          description: screen.status
            ? 'Choose another status to see the rest.'
            : 'Drop receipts (PDF, JPG or PNG) in the box above, or browse for them: each is read and matched to its bank transaction.',
        }}
      />
      {matching && <MatchDialog upload={matching} onClose={() => go({ matching: null })} />}
      {editing && <EditReceiptDialog upload={editing} onClose={() => setEditing(null)} />}
    </section>
  );
}

/** The receipts' columns: the file, the matched transaction and its date fold away below 48em (RecordList). */
function receiptColumns(
  access: { canEdit: boolean; reason: string | null },
  onMatch: (id: string) => void,
  onEdit: (u: WorkspaceUpload) => void,
): RecordColumn<WorkspaceUpload>[] {
  const can = { disabled: !access.canEdit, title: access.reason ?? undefined };
  return [
    { header: 'File', hideHeader: true, width: 'w-16', fold: true, cell: (u) => <FileLink upload={u} isImage={receiptRow(u).isImage} icon /> },
    {
      header: 'Merchant',
      cell: (u) => {
        const row = receiptRow(u);
        return (
          <>
            <button
              type="button"
              disabled={!access.canEdit}
              className="block max-w-full truncate text-left font-medium text-sky-700 underline-offset-2 hover:underline disabled:text-slate-900 disabled:no-underline dark:text-sky-300 dark:disabled:text-slate-100"
              title={row.merchant ? `Edit ${row.merchant}` : `Edit ${row.fileName}`}
              onClick={() => onEdit(u)}
            >
              {row.merchant || (row.reading ? 'Reading…' : 'No merchant read')}
            </button>
            <FileLink upload={u} isImage={row.isImage} icon={false} />
          </>
        );
      },
    },
    {
      header: 'Date',
      width: 'w-24',
      fold: true,
      cell: (u) => {
        const { date } = receiptRow(u);
        return <span className="tabular-nums">{date ? formatShortDate(date) : '—'}</span>;
      },
    },
    {
      header: 'Amount',
      width: 'w-[4.75rem] md:w-24',
      numeric: true,
      cell: (u) => {
        const { amount } = receiptRow(u);
        return amount === null ? '—' : formatMoney(amount);
      },
    },
    {
      header: 'Status',
      width: 'w-[6.75rem] md:w-36',
      cell: (u) => {
        const row = receiptRow(u);
        return (
          <>
            <span className={cx('rounded-full px-2 py-0.5 text-xs font-medium', STATUS_STYLE[row.status])}>{row.statusLabel}</span>
            {row.statusNote && <span className="mt-0.5 block text-xs whitespace-normal text-slate-500 dark:text-slate-400">{row.statusNote}</span>}
          </>
        );
      },
    },
    {
      header: 'Matched transaction',
      width: 'w-[22%]',
      fold: true,
      cell: (u) => {
        const { matched } = receiptRow(u);
        return matched ? (
          <span className="block truncate" title={`${matched.merchantName} · ${matched.dateTime} · ${signedMoney(matched.amount, formatMoney)}`}>
            {matched.merchantName || matched.memo || 'Bank transaction'}
            <span className="block text-xs text-slate-500 tabular-nums dark:text-slate-400">
              {formatShortDate(matched.dateTime.slice(0, 10))} · {signedMoney(matched.amount, formatMoney)}
            </span>
          </span>
        ) : (
          <span className="text-slate-400">—</span>
        );
      },
    },
    {
      header: 'Matched on',
      width: 'w-24',
      fold: true,
      cell: (u) => {
        const { matchedOn } = receiptRow(u);
        return <span className="tabular-nums">{matchedOn ? formatShortDate(matchedOn.slice(0, 10)) : '—'}</span>;
      },
    },
    {
      header: 'Actions',
      hideHeader: true,
      width: 'w-[4.75rem] md:w-40',
      end: true,
      cell: (u) => {
        const row = receiptRow(u);
        return (
          <div className="flex justify-end gap-1">
            <Button
              size="sm"
              variant={row.status === 'matched' ? 'ghost' : 'secondary'}
              {...can}
              aria-label={`${row.status === 'matched' ? 'Change match of' : 'Match'} ${row.merchant || row.fileName}`}
              onClick={() => onMatch(u.id)}
            >
              {row.status === 'matched' ? 'Change' : 'Match'}
            </Button>
            <Button size="sm" variant="ghost" className="max-md:hidden" {...can} aria-label={`Edit ${row.merchant || row.fileName}`} onClick={() => onEdit(u)}>
              Edit
            </Button>
          </div>
        );
      },
    },
  ];
}

/**
 * The receipt's file: a file icon (PDF or image), or its name, that opens it by its signed URL in a new tab. A signed URL lives a few
 * minutes: one that has expired is asked for again first (a window opened at the click, so no pop-up blocker stops it).
 */
function FileLink({ upload, isImage, icon }: { upload: WorkspaceUpload; isImage: boolean; icon: boolean }) {
  const client = useApiClient();
  const open = (e: MouseEvent<HTMLAnchorElement>) => {
    const expires = upload.signedUrlExpiresAt ? Date.parse(upload.signedUrlExpiresAt) : 0;
    if (expires - Date.now() > 15_000) return;
    e.preventDefault();
    const win = window.open('', '_blank');
    void uploadsApi.get(client, upload.id).then(
      (fresh) => {
        if (win) win.location.href = fresh.signedUrl;
      },
      () => win?.close(),
    );
  };
  const common = { href: upload.signedUrl, target: '_blank', rel: 'noopener noreferrer', onClick: open, title: upload.fileName } as const;
  if (!icon) {
    return (
      <a
        {...common}
        className="block truncate text-xs text-slate-500 underline-offset-2 hover:text-sky-700 hover:underline dark:text-slate-400 dark:hover:text-sky-300"
      >
        {upload.fileName}
      </a>
    );
  }
  return (
    <a
      {...common}
      aria-label={`Open ${upload.fileName}`}
      className="flex size-10 flex-col items-center justify-center rounded-md bg-slate-100 text-slate-600 ring-1 ring-slate-200 hover:bg-sky-50 hover:text-sky-700 dark:bg-slate-800 dark:text-slate-300 dark:ring-slate-700"
    >
      <FileIcon />
      <span className="text-[9px] leading-none font-bold tracking-wide">{isImage ? 'IMG' : 'PDF'}</span>
    </a>
  );
}

const FileIcon = () => (
  <svg
    width="16"
    height="16"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="1.8"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
  >
    <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8Z" />
    <path d="M14 3v5h5" />
  </svg>
);

/**
 * Match: the receipt's facts, the server's suggestions first (with their confidence and reasons), then the bank
 * transactions a search finds (the newest first without one); Match on a row posts the match.
 */
function MatchDialog({ upload, onClose }: { upload: WorkspaceUpload; onClose: () => void }) {
  const { typed, setTyped, search, list: found, found: transactions } = useTransactionSearch();
  const match = useMatchUpload();
  const notice = useNotice();
  const access = useEditAccess();
  const [refused, setRefused] = useState<string | null>(null);
  const row = receiptRow(upload);
  const candidates = matchCandidates(upload, transactions, search);
  const choose = (c: Candidate) =>
    match.mutate(
      { id: upload.id, transactionId: c.id },
      {
        onSuccess: (answer) => {
          notice.success(answer.message || 'Receipt matched successfully.');
          onClose();
        },
        onError: (e) => setRefused(describeError(e)?.message ?? 'The receipt could not be matched'),
      },
    );
  const facts = [row.merchant || row.fileName, row.date ? formatShortDate(row.date) : null, row.amount === null ? null : formatMoney(row.amount)]
    .filter(Boolean)
    .join(' · ');

  return (
    <PartyDialog
      open
      onClose={onClose}
      title="Match receipt"
      description={facts}
      size="lg"
      actions={
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
      }
    >
      {row.matched && (
        <p className="mb-3 rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100">
          Matched now to {row.matched.merchantName || 'a bank transaction'} on {formatShortDate(row.matched.dateTime.slice(0, 10))} (
          {signedMoney(row.matched.amount, formatMoney)}). Pick another to change it.
        </p>
      )}
      <TransactionSearchField typed={typed} setTyped={setTyped} />
      <DialogMessage text={refused} />
      <div className="mt-3">
        {found.isPending && candidates.length === 0 ? (
          <Spinner label="Loading the transactions" />
        ) : candidates.length === 0 ? (
          <p className="py-6 text-center text-sm text-slate-500 dark:text-slate-400">
            {search ? `No transactions match “${search}”.` : 'No bank transactions yet.'}
          </p>
        ) : (
          <ul
            aria-label="Candidate transactions"
            className="divide-y divide-slate-100 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800"
          >
            {candidates.map((c) => (
              <li
                key={c.id}
                className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-3 gap-y-1 px-3 py-2 text-sm"
                aria-label={`${c.description} ${c.date}`}
              >
                <div className="min-w-0">
                  <p className="flex min-w-0 items-center gap-2">
                    <span className="truncate font-medium text-slate-900 dark:text-slate-100" title={c.description}>
                      {c.description}
                    </span>
                    {c.confidence !== null && (
                      <span
                        className="shrink-0 rounded-full bg-sky-50 px-2 py-0.5 text-xs font-medium text-sky-800 dark:bg-sky-950 dark:text-sky-200"
                        title={c.reasons.join('; ')}
                      >
                        Suggested · {Math.round(c.confidence * 100)}%
                      </span>
                    )}
                  </p>
                  <p className="text-xs text-slate-500 tabular-nums dark:text-slate-400">
                    {formatShortDate(c.date)} · {signedMoney(c.amount, formatMoney)}
                  </p>
                </div>
                <Button
                  size="sm"
                  variant={c.confidence !== null ? 'primary' : 'secondary'}
                  disabled={!access.canEdit || match.isPending}
                  title={access.reason ?? undefined}
                  aria-label={`Match to ${c.description} ${c.date}`}
                  onClick={() => choose(c)}
                >
                  Match
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </PartyDialog>
  );
}

/** Edit what was read: merchant, date and amount (PATCH); the receipt is then matched again by the server. */
function EditReceiptDialog({ upload, onClose }: { upload: WorkspaceUpload; onClose: () => void }) {
  const update = useUpdateUpload();
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const [merchantName, setMerchant] = useState(upload.merchantName ?? '');
  const [dateTime, setDate] = useState(upload.dateTime ?? '');
  const [amount, setAmount] = useState(upload.amount === null || upload.amount === undefined ? '' : String(upload.amount));
  const [errors, setErrors] = useState<Partial<Record<'merchantName' | 'dateTime', string>>>({});
  const [refused, setRefused] = useState<string | null>(null);
  const save = () => {
    const found = validateReceiptEdit({ merchantName, dateTime });
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const value = parseAmount(amount);
    update.mutate(
      {
        id: upload.id,
        ...(merchantName.trim() ? { merchantName: merchantName.trim() } : {}),
        ...(dateTime ? { dateTime } : {}),
        ...(value !== null && value > 0 ? { amount: value } : {}),
      },
      {
        onSuccess: (answer) => {
          notice.success(answer.message || 'Upload updated successfully.');
          onClose();
        },
        onError: (e) => {
          const d = describeError(e);
          if (d) setRefused(d.message);
          else showError(e);
        },
      },
    );
  };
  return (
    <EditorDialog title="Edit receipt" label="Receipt" saveLabel="Save" saving={update.isPending} onSave={save} onCancel={onClose} refused={refused}>
      <p className="truncate text-sm text-slate-500 dark:text-slate-400" title={upload.fileName}>
        {upload.fileName}
      </p>
      <TextField
        label="Merchant"
        name="merchantName"
        maxLength={200}
        value={merchantName}
        error={errors.merchantName}
        onChange={(e) => setMerchant(e.target.value)}
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <DatePicker label="Date" name="dateTime" value={dateTime || null} max={todayIso()} error={errors.dateTime} onChange={setDate} />
        <AmountInput label="Amount" name="amount" value={amount} onValueChange={setAmount} />
      </div>
    </EditorDialog>
  );
}
