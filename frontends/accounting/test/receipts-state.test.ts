import type { Transaction, WorkspaceUpload } from '@ledgerline/api';
import { describe, expect, it } from 'vitest';
import {
  isReceiptStatus,
  matchCandidates,
  RECEIPT_STATUS_LABELS,
  receiptRow,
  receiptsScreenFromSearch,
  receiptsSearch,
  signedMoney,
  validateReceiptEdit,
} from '../src/receipts/state';

const summary = (id: string, merchantName: string, amount = -12.5, dateTime = '2026-04-14') => ({
  id,
  merchantName,
  amount,
  dateTime,
  memo: '',
  accountId: 'a',
  isoCurrencyCode: 'USD',
});
const upload = (over: Partial<WorkspaceUpload> = {}): WorkspaceUpload => ({
  id: 'u1',
  url: '/workspace-uploads/u1',
  signedUrl: 'http://files/u1?sig',
  uploadType: 'receipt',
  workspaceId: 'w',
  receiptStatus: 'unmatched',
  fileName: 'coffee.pdf',
  contentType: 'application/pdf',
  sizeBytes: 100,
  createdAt: '2026-04-14T10:00:00Z',
  readStatus: 'read',
  merchantName: 'Blue Bottle',
  dateTime: '2026-04-14',
  amount: 12.5,
  suggestions: [],
  ...over,
});
const txn = (id: string, name: string, amount = -12.5): Transaction =>
  ({ id, biller: { id: `b-${id}`, name }, memo: `memo ${name}`, amount, dateTime: '2026-04-13T00:00:00.000Z' }) as unknown as Transaction;

describe('the receipt matching tab state', () => {
  it('reads the receiptStatus filter and the receipt being matched from the URL, and writes them back', () => {
    expect(receiptsScreenFromSearch(new URLSearchParams('tab=receipt-matching&filter=review&rec=u1'))).toEqual({ status: 'review', matching: 'u1' });
    expect(receiptsScreenFromSearch(new URLSearchParams('tab=receipt-matching&filter=bogus'))).toEqual({ status: '', matching: null });
    const latest = new URLSearchParams('tab=receipt-matching&other=x');
    expect(receiptsSearch(latest, { status: 'matched', matching: null }).toString()).toBe('tab=receipt-matching&filter=matched');
    expect(receiptsSearch(latest, { status: '', matching: 'u2' }).toString()).toBe('tab=receipt-matching&rec=u2');
  });

  it('a row says how the receipt was matched, or that it is still being read, or how many suggestions wait', () => {
    expect(
      receiptRow(upload({ receiptStatus: 'matched', matchedBy: 'auto', matchedTransaction: summary('t1', 'BLUE BOTTLE'), matchedOn: '2026-04-15T08:00:00Z' })),
    ).toMatchObject({
      status: 'matched',
      statusLabel: 'Matched',
      statusNote: 'Matched automatically',
      matched: { id: 't1' },
      matchedOn: '2026-04-15T08:00:00Z',
    });
    expect(receiptRow(upload({ receiptStatus: 'matched', matchedBy: 'manual' })).statusNote).toBe('Matched by hand');
    expect(receiptRow(upload({ readStatus: '' })).statusNote).toBe('Reading…');
    expect(receiptRow(upload({ receiptStatus: 'review', suggestions: [{ transaction: summary('t1', 'A'), confidence: 0.6, reasons: [] }] })).statusNote).toBe(
      '1 suggested',
    );
    expect(receiptRow(upload({ contentType: 'image/png', merchantName: null, amount: null, dateTime: null }))).toMatchObject({
      isImage: true,
      merchant: '',
      amount: null,
      date: '',
    });
  });

  it('lists the suggestions first, best first, then the transactions found, each once, without the current match', () => {
    const u = upload({
      receiptStatus: 'review',
      matchedTransaction: null,
      suggestions: [
        { transaction: summary('t2', 'Blue Bottle SF'), confidence: 0.6, reasons: ['amount'] },
        { transaction: summary('t1', 'Blue Bottle'), confidence: 0.8, reasons: ['amount', 'date'] },
      ],
    });
    const ids = matchCandidates(u, [txn('t3', 'Cafe'), txn('t1', 'Blue Bottle'), txn('t4', 'Uber', 20)], '').map((c) => [c.id, c.confidence]);
    expect(ids).toEqual([
      ['t1', 0.8],
      ['t2', 0.6],
      ['t3', null],
      ['t4', null],
    ]);
    expect(matchCandidates(u, [txn('t3', 'Cafe')], 'sf').map((c) => c.id)).toEqual(['t2', 't3']);
    const matched = upload({ receiptStatus: 'matched', matchedTransaction: summary('t1', 'Blue Bottle') });
    expect(matchCandidates(matched, [txn('t1', 'Blue Bottle'), txn('t3', 'Cafe')], '').map((c) => c.id)).toEqual(['t3']);
  });

  it('shows money out as spent, and checks the edit form before sending it', () => {
    const f = (n: number) => `$${n.toFixed(2)}`;
    expect(signedMoney(-12.5, f)).toBe('−$12.50');
    expect(signedMoney(3, f)).toBe('$3.00');
    expect(validateReceiptEdit({ merchantName: '', dateTime: '' })).toEqual({ merchantName: 'Enter a merchant or a date' });
    expect(validateReceiptEdit({ merchantName: 'x'.repeat(201), dateTime: '' })).toEqual({ merchantName: 'Merchant must be at most 200 characters' });
    expect(validateReceiptEdit({ merchantName: 'Cafe', dateTime: '' })).toEqual({});
  });
});

describe('receipt statuses as the tab shows them', () => {
  it('knows the filter values and names each', () => {
    expect(['matched', 'review', 'unmatched', 'other', ''].map(isReceiptStatus)).toEqual([true, true, true, false, false]);
    expect(RECEIPT_STATUS_LABELS).toEqual({ matched: 'Matched', review: 'To review', unmatched: 'Unmatched' });
  });
});
