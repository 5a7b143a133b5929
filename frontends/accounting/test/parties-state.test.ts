import { describe, expect, it } from 'vitest';
import {
  ruleFormFromTransaction,
  EIN_MESSAGE,
  EMAIL_MESSAGE,
  EMPTY_MERGE,
  MERGE_LIST_MESSAGE,
  MERGE_PARENT_MESSAGE,
  META_MESSAGE,
  NAME_REQUIRED,
  chooseParent,
  customerBody,
  customerForm,
  customerScreenFromSearch,
  mergeBody,
  mergeConfirmation,
  mergeProblem,
  normalizeEin,
  parseMetaData,
  partySearch,
  toggleMerging,
  uniqueRows,
  validateCustomerForm,
  validateVendorForm,
  vendorBody,
  vendorForm,
  vendorScreenFromSearch,
} from '../src/parties/state';
import { SCROLL_THRESHOLD_VIEWPORTS, SCROLL_THROTTLE_MS, shouldFetchNextPage } from '../src/transactions/rules';

const A = '0b7c8f2e-1111-4a2b-8c3d-000000000001';
const B = '0b7c8f2e-1111-4a2b-8c3d-000000000002';
const C = '0b7c8f2e-1111-4a2b-8c3d-000000000003';

describe('vendors tab state in the URL', () => {
  it('reads filters, the open vendor and the mode, and writes them back the same way', () => {
    const params = new URLSearchParams(`tab=vendors&search=blue&status=inactive&filter=not-added&vendor=${A}&mode=edit`);
    const screen = vendorScreenFromSearch(params);
    expect(screen).toEqual({ filters: { search: 'blue', status: 'inactive', filter: 'not-added' }, openId: A, mode: 'edit' });
    expect(partySearch('vendors', screen).toString()).toBe(params.toString());
  });

  it('an open vendor without a mode is viewed; a bare tab is the unfiltered list', () => {
    expect(vendorScreenFromSearch(new URLSearchParams(`tab=vendors&vendor=${A}`))).toMatchObject({ openId: A, mode: 'view' });
    const bare = vendorScreenFromSearch(new URLSearchParams('tab=vendors'));
    expect(bare).toEqual({ filters: { search: '', status: '', filter: '' }, openId: null, mode: 'idle' });
    expect(partySearch('vendors', bare).toString()).toBe('tab=vendors');
    expect(partySearch('vendors', { ...bare, openId: A, mode: 'view' }).toString()).toBe(`tab=vendors&vendor=${A}`);
  });

  it('a malformed value is ignored (its default applies)', () => {
    const screen = vendorScreenFromSearch(new URLSearchParams('filter=maybe&status=gone&vendor=not-a-uuid&mode=edit'));
    expect(screen).toEqual({ filters: { search: '', status: '', filter: '' }, openId: null, mode: 'idle' });
  });

  it('create wins over an open vendor and drops it', () => {
    const screen = vendorScreenFromSearch(new URLSearchParams(`vendor=${A}&mode=create`));
    expect(screen).toMatchObject({ openId: null, mode: 'create' });
    expect(partySearch('vendors', screen).toString()).toBe('tab=vendors&mode=create');
  });

  it('drops parameters of other tabs and the Added filter on customers', () => {
    const screen = customerScreenFromSearch(new URLSearchParams(`tab=customers&txn=${B}&filter=added&search=acme&customer=${C}`));
    expect(screen).toEqual({ filters: { search: 'acme', status: '' }, openId: C, mode: 'view' });
    expect(partySearch('customers', screen).toString()).toBe(`tab=customers&search=acme&customer=${C}`);
  });

  it('a blank search is left out', () => {
    expect(partySearch('vendors', { filters: { search: '   ', status: '', filter: 'added' }, openId: null, mode: 'idle' }).toString()).toBe(
      'tab=vendors&filter=added',
    );
  });
});

describe('infinite scroll (spec §2: page 20, next when the rest is within 2.2 viewports, 200 ms)', () => {
  it('uses the spec constants', () => {
    expect(SCROLL_THRESHOLD_VIEWPORTS).toBe(2.2);
    expect(SCROLL_THROTTLE_MS).toBe(200);
  });
  it('fetches when what is left below is at most 2.2 viewports, not before', () => {
    const viewportHeight = 900;
    const scrollHeight = 6000;
    // left below = 6000 - top - 900; the edge is at 2.2 × 900 = 1980 → top = 3120.
    expect(shouldFetchNextPage({ scrollHeight, scrollTop: 3119, viewportHeight })).toBe(false);
    expect(shouldFetchNextPage({ scrollHeight, scrollTop: 3120, viewportHeight })).toBe(true);
    expect(shouldFetchNextPage({ scrollHeight, scrollTop: 0, viewportHeight })).toBe(false);
  });
  it('a first page shorter than 2.2 viewports asks for the next at once', () => {
    expect(shouldFetchNextPage({ scrollHeight: 20 * 36 + 400, scrollTop: 0, viewportHeight: 900 })).toBe(true);
  });
  it('rows are listed once when a row shifts onto the next page', () => {
    expect(uniqueRows([{ data: [{ id: A }, { id: B }] }, { data: [{ id: B }, { id: C }] }]).map((r) => r.id)).toEqual([A, B, C]);
    expect(uniqueRows(undefined)).toEqual([]);
  });
});

describe('merge selection', () => {
  it('needs a parent and at least one vendor to merge, in the spec words', () => {
    expect(mergeProblem(EMPTY_MERGE)).toBe(MERGE_PARENT_MESSAGE);
    const parent = chooseParent(EMPTY_MERGE, A);
    expect(mergeProblem(parent)).toBe(MERGE_LIST_MESSAGE);
    expect(mergeBody(parent)).toBeNull();
    const both = toggleMerging(toggleMerging(parent, B), C);
    expect(mergeProblem(both)).toBeNull();
    expect(mergeBody(both)).toEqual({ parentVendorId: A, mergingVendorsId: [B, C] });
  });

  it('the parent cannot be merged into itself: ticking it does nothing, choosing it unticks it', () => {
    const s = toggleMerging(toggleMerging(EMPTY_MERGE, A), B);
    expect(s.mergingIds).toEqual([A, B]);
    const withParent = chooseParent(s, A);
    expect(withParent).toEqual({ parentId: A, mergingIds: [B] });
    expect(toggleMerging(withParent, A)).toBe(withParent);
    expect(toggleMerging(withParent, B).mergingIds).toEqual([]);
  });

  it('the confirmation names both sides', () => {
    const names: Record<string, string> = { [A]: 'Blue Bottle Coffee', [B]: 'SQ *BLUE BOTTLE', [C]: 'Blue Bottle #12' };
    const s = toggleMerging(toggleMerging(chooseParent(EMPTY_MERGE, A), B), C);
    expect(mergeConfirmation(s, (id) => names[id] ?? id)).toMatch(/^Merge SQ \*BLUE BOTTLE, Blue Bottle #12 into Blue Bottle Coffee\?/);
  });
});

describe('vendor and customer forms (spec §3 fields, §5 messages)', () => {
  it('checks name, email and EIN', () => {
    expect(validateVendorForm({ ...vendorForm(null), name: ' ', email: 'nope', ein: '12-34' })).toEqual({
      name: NAME_REQUIRED,
      email: EMAIL_MESSAGE,
      ein: EIN_MESSAGE,
    });
    expect(validateVendorForm({ ...vendorForm(null), name: 'Acme', email: 'a@b.co', ein: '123456789' })).toEqual({});
  });
  it('writes an EIN as XX-XXXXXXX and sends every field (an emptied one clears it)', () => {
    expect(normalizeEin('123456789')).toBe('12-3456789');
    expect(normalizeEin(' 12-3456789 ')).toBe('12-3456789');
    expect(vendorBody({ ...vendorForm(null), name: ' Acme ', email: 'AP@Acme.COM', ein: '123456789', is1099Eligible: true })).toEqual({
      name: 'Acme',
      description: '',
      address: '',
      bankDetails: '',
      email: { email: 'ap@acme.com' },
      is1099Eligible: true,
      ein: '12-3456789',
      status: 'active',
    });
  });
  it('customer metaData is "key: value" lines, numbers kept as numbers', () => {
    expect(parseMetaData('plan: Pro\nseats: 12\n\n')).toEqual({ plan: 'Pro', seats: 12 });
    expect(parseMetaData('no colon here')).toBeNull();
    expect(validateCustomerForm({ ...customerForm(null), name: 'Acme', metaData: ':x' })).toEqual({ metaData: META_MESSAGE });
    const form = { ...customerForm(null), name: 'Acme', companyName: ' Acme Inc ', metaData: 'region: EU' };
    expect(customerBody(form)).toMatchObject({ name: 'Acme', companyName: 'Acme Inc', metaData: { region: 'EU' }, email: { email: '' } });
  });
});

describe('a rule made from a transaction (the drawer’s Create rule)', () => {
  it('takes its vendor, category and bank name, from a year before its date', () => {
    const form = ruleFormFromTransaction({
      biller: { id: 'b', name: 'Uber Trip' } as never,
      memo: 'UBER *TRIP',
      vendorId: 'v1',
      category: { id: 'c1' } as never,
      dateTime: '2026-03-01T10:00:00Z',
    });
    expect(form).toMatchObject({
      name: 'Uber Trip rule',
      vendorId: 'v1',
      categoryId: 'c1',
      descriptionSign: 'contains',
      descriptionValue: 'Uber Trip',
      ruleApplyDateTime: '2025-03-01',
      amountValue: '',
      sourceId: '',
    });
  });

  it('falls back to the bank text, and leaves what the transaction lacks for the person to choose', () => {
    const form = ruleFormFromTransaction({ biller: null, memo: 'ACH STRIPE', vendorId: null, category: null, dateTime: '2024-02-29' });
    expect(form).toMatchObject({ name: 'ACH STRIPE rule', vendorId: '', categoryId: '', descriptionValue: 'ACH STRIPE', ruleApplyDateTime: '2023-02-28' });
  });
});
