// The drafts' pure rules (domain/drafts.ts): the §8 conversion messages word for word, the first problem of a draft by
// the bill's / invoice's own rules (Line Item N prefix) and the recurrence's ('Please fill all recurring details'),
// metaData in REST names and dollars turned into the document use case's input, and the draftIds list.
import { describe, expect, it } from 'vitest';
import {
  cleanDraftIds,
  conversionMessage,
  draftDocumentInput,
  draftRecurrence,
  firstDraftProblem,
  parseMetaData,
  parsePublishedAt,
} from '../src/domain/drafts.js';

const VENDOR = '6f9619ff-8b86-4011-b42d-00c04fc964ff';
const CATEGORY = '3f2b8c1e-6d4a-4f7b-9a1c-2e5d7f8a9b0c';
const bill = (over: Record<string, unknown> = {}) => ({
  billDate: '2026-03-10',
  vendorId: VENDOR,
  lineItems: [{ serviceName: 'Toner', categoryId: CATEGORY, amount: 40 }],
  ...over,
});

describe('conversion messages (spec §8)', () => {
  it('none created and some failed: Failed to create {n}; otherwise {created} created, with ", {failed} failed." when any failed', () => {
    expect(conversionMessage('bill', 0, 3)).toBe('Failed to create 3 bills');
    expect(conversionMessage('invoice', 0, 1)).toBe('Failed to create 1 invoices');
    expect(conversionMessage('bill', 2, 1)).toBe('2 bills created, 1 failed.');
    expect(conversionMessage('invoice', 4, 0)).toBe('4 invoices created');
    expect(conversionMessage('bill', 0, 0)).toBe('0 bills created');
  });
});

describe("a draft's first problem", () => {
  it("is the document's first, in field order, with the Line Item N prefix", () => {
    expect(firstDraftProblem('bill', bill())).toBeUndefined();
    expect(firstDraftProblem('bill', {})).toEqual({ field: 'billDate', message: 'billDate is required' });
    expect(firstDraftProblem('bill', bill({ vendorId: undefined }))).toEqual({ field: 'vendorId', message: 'Vendor is required' });
    expect(firstDraftProblem('bill', bill({ lineItems: [] }))).toEqual({ field: 'lineItems', message: 'At least one line item is required' });
    expect(
      firstDraftProblem(
        'bill',
        bill({
          lineItems: [
            { serviceName: 'a', categoryId: CATEGORY, amount: 1 },
            { serviceName: 'b', categoryId: 'x', amount: 1 },
          ],
        }),
      ),
    ).toEqual({ field: 'lineItems.1.categoryId', message: 'Line Item 2: categoryId must be a UUID' });
    expect(firstDraftProblem('bill', bill({ lineItems: [{ serviceName: 'a', categoryId: CATEGORY, amount: 1.234 }] }))).toEqual({
      field: 'lineItems.0.amount',
      message: 'Line Item 1: amount must be greater than 0',
    });
    expect(
      firstDraftProblem('invoice', {
        invoiceDate: '2026-03-10',
        customerId: VENDOR,
        lineItems: [{ serviceName: 'w', categoryId: CATEGORY, quantity: 3, rate: 10, amount: 31 }],
      }),
    ).toEqual({ field: 'lineItems.0.amount', message: 'Line Item 1: Amount must equal quantity multiplied by rate' });
  });

  it('then the recurrence: when any recurring field is given (or isRecurring), start, end and interval are all required', () => {
    expect(draftRecurrence({}).active).toBe(false);
    expect(firstDraftProblem('bill', bill({ interval: 'monthly' }))).toEqual({ field: 'recurringStartDate', message: 'Please fill all recurring details' });
    expect(firstDraftProblem('bill', bill({ recurringStartDate: '2026-04-01', interval: 'monthly' }))).toEqual({
      field: 'recurringEndDate',
      message: 'Please fill all recurring details',
    });
    expect(firstDraftProblem('bill', bill({ isRecurring: true, recurringStartDate: '2026-04-01', recurringEndDate: '2026-06-30' }))).toEqual({
      field: 'interval',
      message: 'Please fill all recurring details',
    });
    const ok = draftRecurrence({ recurringStartDate: '2026-04-01', recurringEndDate: '2026-06-30', interval: 'monthly' });
    expect(ok.problems).toEqual([]);
    expect(ok.value?.schedule).toEqual({ startDate: '2026-04-01', interval: 'monthly', endDate: '2026-06-30', count: 0 });
  });
});

describe("metaData to the document's input", () => {
  it('takes the bill / invoice REST names and dollars, as the routes do (serviceName falls back to description)', () => {
    expect(
      draftDocumentInput('invoice', {
        invoiceDate: '2026-01-02',
        customerId: VENDOR,
        referenceNo: 'R-1',
        lineItems: [{ description: 'Work', categoryId: CATEGORY, quantity: 2.5, rate: '10.10', amount: 25.25 }],
      }),
    ).toEqual({
      date: '2026-01-02',
      dueDate: undefined,
      partyId: VENDOR,
      reference: 'R-1',
      description: undefined,
      companyName: undefined,
      companyAddress: undefined,
      lineItems: [{ serviceName: 'Work', categoryId: CATEGORY, amountCents: 2525, quantity: '2.5', rateCents: 1010 }],
    });
  });
  it('parses metaData, publishedAt and draftIds', () => {
    expect(parseMetaData('[1]').problem).toEqual({ field: 'metaData', message: 'metaData must be a JSON object' });
    expect(parseMetaData('').value).toEqual({});
    expect(parsePublishedAt('2026-03-11', new Date(0))?.toISOString()).toBe('2026-03-11T00:00:00.000Z');
    expect(parsePublishedAt('not a date', new Date(0))).toBeUndefined();
    expect(cleanDraftIds([` ${VENDOR.toUpperCase()}`, VENDOR, '']).value).toEqual([VENDOR]);
    expect(cleanDraftIds([]).problems).toEqual([{ field: 'draftIds', message: 'At least one draft is required' }]);
    expect(cleanDraftIds(['x']).problems).toEqual([{ field: 'draftIds', message: 'draftIds must hold UUIDs' }]);
  });
});
