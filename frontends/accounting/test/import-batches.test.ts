import type { Draft, Job } from '@ledgerline/api';
import { describe, expect, it } from 'vitest';
import { importOutcome, type ImportBatch } from '../src/drafts/import-batches';
import { nameRead, partyNameWords, partySearchWord, suggestParty } from '../src/drafts/state';

const job = (id: string, status: Job['status'], pushed: number, total: number, failedReason: string | null = null): Job => ({
  id,
  type: 'bulk upload',
  status,
  order: 0,
  attempts: 1,
  failedReason,
  createdOn: '',
  finishedOn: null,
  data: { requestId: id, accountId: '', transactionPushed: pushed, totalTransactions: total, uploadType: 'bill' },
});
const batch = (key: string, kind: 'bill' | 'invoice' = 'bill'): ImportBatch => ({ key, kind, before: new Set() });

describe('the import notices of uploaded batches', () => {
  it('nothing watched: no notice', () => {
    expect(importOutcome([], undefined)).toBeNull();
  });
  it('importing while a job is not listed yet or in progress, counting the files read', () => {
    expect(importOutcome([batch('a')], undefined)).toEqual({ state: 'importing', read: 0, total: 0 });
    expect(
      importOutcome(
        [batch('a'), batch('b')],
        new Map([
          ['a', job('j1', 'completed', 2, 2)],
          ['b', null],
        ]),
      ),
    ).toEqual({ state: 'importing', read: 2, total: 2 });
    expect(importOutcome([batch('a')], new Map([['a', job('j1', 'active', 1, 3)]]))).toEqual({ state: 'importing', read: 1, total: 3 });
  });
  it('done once every job is over: View opens the last batch kind, a failed job is named with its reason', () => {
    const jobs = new Map([
      ['a', job('j1', 'completed', 2, 2)],
      ['b', job('j2', 'failed', 1, 1, 'No file could be read')],
    ]);
    expect(importOutcome([batch('a'), batch('b', 'invoice')], jobs)).toEqual({
      state: 'done',
      entity: 'invoice',
      failed: [{ kind: 'invoice', reason: 'No file could be read' }],
      keys: ['a', 'b'],
    });
  });
});

const draft = (entityType: 'bill' | 'invoice', extracted: Record<string, unknown>): Draft => ({
  id: 'd',
  draftType: 'bulk_upload',
  entityType,
  metaData: { extracted } as unknown as Draft['metaData'],
  createdByUser: '',
  lastModifiedByUser: '',
  publishedDate: '',
  createdOn: '',
  updatedOn: '',
  bulkUploadId: '',
  firstError: null,
});

describe('the party picked from the name read', () => {
  it('reads the name the job wrote: billerName for a bill, customerName for an invoice, else the merchant', () => {
    expect(nameRead(draft('bill', { billerName: 'Northwind Traders', merchant: 'NW' }))).toBe('Northwind Traders');
    expect(nameRead(draft('invoice', { customerName: 'Acme Corp', billerName: 'x' }))).toBe('Acme Corp');
    expect(nameRead(draft('bill', { merchant: 'Sunrise Diner' }))).toBe('Sunrise Diner');
    expect(nameRead(draft('bill', {}))).toBe('');
  });
  it('compares names without case, accents, punctuation, a leading "the" or legal forms', () => {
    expect(partyNameWords('The Café & Co., LLC')).toEqual(['cafe', 'and']);
    expect(partyNameWords('Inc')).toEqual(['inc']);
    expect(partySearchWord('Redwood Plumbing Co')).toBe('plumbing');
    expect(partySearchWord('---')).toBe('');
  });
  it('picks the one party that fits, and none when several or none do', () => {
    const parties = [
      { id: '1', name: 'Northwind Traders' },
      { id: '2', name: 'Northwind' },
      { id: '3', name: 'Redwood Plumbing' },
      { id: '4', name: 'Summit Office Supply' },
    ];
    expect(suggestParty('NORTHWIND TRADERS, INC.', parties)?.id).toBe('1');
    expect(suggestParty('Redwood Plumbing Co', parties)?.id).toBe('3');
    expect(suggestParty('Summit Office Supply Company of Denver', parties)?.id).toBe('4');
    // "Northwind" alone is the same as party 2 exactly.
    expect(suggestParty('northwind', parties)?.id).toBe('2');
    expect(
      suggestParty('Northwind Traders Pacific', [
        { id: '1', name: 'Northwind Traders' },
        { id: '2', name: 'Northwind' },
      ]),
    ).toBeNull();
    expect(suggestParty('Lakeside Bakery', parties)).toBeNull();
    expect(suggestParty('', parties)).toBeNull();
    // Short words alone do not make a match.
    expect(suggestParty('A B C', [{ id: '9', name: 'A B' }])).toBeNull();
  });
});
