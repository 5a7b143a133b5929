import type { Draft } from '@ledgerline/api';
import { describe, expect, it } from 'vitest';
import { bulkDraftSearch, conversionMessage, draftForm, draftMetaData, draftRow, importNotice, isBulkDraft, IMPORT_NOTICE_ID } from '../src/drafts/state';

const meta = {
  billDate: '2026-03-10',
  vendorId: 'v1',
  invoiceCode: 'A-1',
  uploadId: 'u1',
  extracted: { merchantName: 'Cafe' },
  lineItems: [
    { serviceName: 'Coffee', categoryId: 'c1', amount: 4.5 },
    { description: 'Cake', amount: 3 },
  ],
};
const draft = (over: Partial<Draft> = {}): Draft => ({
  id: 'd1',
  draftType: 'upload',
  entityType: 'bill',
  metaData: meta,
  createdByUser: '',
  lastModifiedByUser: '',
  publishedDate: '',
  createdOn: '',
  updatedOn: '',
  bulkUploadId: '',
  firstError: null,
  ...over,
});

describe('the bulk-draft review state', () => {
  it('lives at ?tab=bills&mode=bulk-draft', () => {
    expect(bulkDraftSearch('bill').toString()).toBe('tab=bills&mode=bulk-draft');
    expect(bulkDraftSearch('invoice').toString()).toBe('tab=invoices&mode=bulk-draft');
    expect(isBulkDraft(new URLSearchParams('tab=bills&mode=bulk-draft'))).toBe(true);
    expect(isBulkDraft(new URLSearchParams('tab=bills&mode=create'))).toBe(false);
  });

  it("a row: date, party, merchant, reference, the lines' total and the first error (the last conversion's refusal first)", () => {
    expect(draftRow(draft())).toEqual({
      id: 'd1',
      date: '2026-03-10',
      partyId: 'v1',
      merchant: 'Cafe',
      reference: 'A-1',
      total: 7.5,
      error: '',
      errorField: '',
    });
    expect(draftRow(draft({ firstError: { field: 'lineItems', message: 'At least one line item is required' } })).error).toBe(
      'At least one line item is required',
    );
    expect(draftRow(draft({ firstError: null }), { field: 'vendorId', message: 'Vendor not found' }).errorField).toBe('vendorId');
    expect(draftRow(draft({ metaData: {} })).total).toBeNull();
  });

  it('the editor keeps what it does not show (upload, extracted) and leaves blanks out', () => {
    const f = draftForm('bill', meta);
    expect(f.lines.map((l) => [l.serviceName, l.amount])).toEqual([
      ['Coffee', '4.5'],
      ['Cake', '3'],
    ]);
    const saved = draftMetaData('bill', meta, {
      ...f,
      reference: ' ',
      dueDate: '2026-04-01',
      lines: [...f.lines, { ...f.lines[0]!, key: 'blank', serviceName: '', categoryId: '', amount: '' }],
    });
    expect(saved).toEqual({
      uploadId: 'u1',
      extracted: { merchantName: 'Cafe' },
      billDate: '2026-03-10',
      dueDate: '2026-04-01',
      vendorId: 'v1',
      lineItems: [
        { serviceName: 'Coffee', categoryId: 'c1', amount: 4.5 },
        { serviceName: 'Cake', amount: 3 },
      ],
    });
  });

  it("an invoice line's amount is quantity × rate when both are given", () => {
    const f = draftForm('invoice', { lineItems: [{ serviceName: 'Work', quantity: 3, rate: 12.5 }] });
    expect(draftMetaData('invoice', {}, f).lineItems).toEqual([{ serviceName: 'Work', quantity: 3, rate: 12.5, amount: 37.5 }]);
  });

  it('the import notices, word for word, share one id; the finished one has the View action', () => {
    let viewed = 0;
    const importing = importNotice('importing', () => viewed++);
    expect(importing).toMatchObject({ id: IMPORT_NOTICE_ID, title: 'Importing', message: 'Please wait while we finish uploading' });
    expect(importing.action).toBeUndefined();
    const done = importNotice('complete', () => viewed++);
    expect(done).toMatchObject({ id: IMPORT_NOTICE_ID, title: 'Import Complete!', message: 'Click here to review and save them', action: { label: 'View' } });
    done.action?.onClick();
    expect(viewed).toBe(1);
  });
});

describe('the conversion message (spec §8, as the server words it)', () => {
  it('counts what was created and what failed', () => {
    expect(conversionMessage('bill', 3, 0)).toBe('3 bills created');
    expect(conversionMessage('invoice', 2, 1)).toBe('2 invoices created, 1 failed.');
    expect(conversionMessage('bill', 0, 4)).toBe('Failed to create 4 bills');
    expect(conversionMessage('invoice', 0, 0)).toBe('0 invoices created');
  });
});
