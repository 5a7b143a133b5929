// The sync log of one item, without HTTP: folding within a page, snapshots, cursors.
import { describe, expect, it } from 'vitest';
import { findInstitution } from '../src/domain/catalog.js';
import { SandboxItem, UnknownTransactionError } from '../src/domain/item.js';
import { decodeCursor, encodeCursor } from '../src/cursor.js';

const institution = findInstitution('ins_109508') ?? fail('missing institution');

function fail(message: string): never {
  throw new Error(message);
}

function item(count: number): SandboxItem {
  const accounts = institution.accounts.map((template, i) => ({ accountId: `acct-${i}`, template }));
  return new SandboxItem(
    'item-1',
    'access-sandbox-1',
    institution,
    accounts,
    { seed: 9, contentKey: 'k', count, startDate: '2026-01-01', endDate: '2026-03-31', pendingDays: 2 },
    { webhook: null, products: ['transactions'], username: 'user_good', now: new Date('2026-03-31T12:00:00Z') },
  );
}

function page(i: SandboxItem, cursor: { position: number; end: number } | undefined, count: number) {
  const outcome = i.sync(cursor, count);
  if (!outcome.ok) throw new Error(outcome.reason);
  return outcome.page;
}

describe('sync log', () => {
  it('folds changes to one transaction within a page', () => {
    const i = item(0);
    const [a, b] = i.addTransactions([{ amount: 10 }, { amount: 20 }]);
    if (!a || !b) throw new Error('not added');
    i.modifyTransactions([{ transaction_id: a.transaction_id, amount: 11 }]);
    i.removeTransactions([b.transaction_id]);
    const p = page(i, undefined, 100);
    // a: added then modified → added with the new amount; b: added then removed → never seen.
    expect(p.added.map((t) => [t.transaction_id, t.amount])).toEqual([[a.transaction_id, 11]]);
    expect(p.modified).toEqual([]);
    expect(p.removed).toEqual([]);
  });

  it('keeps page boundaries stable and reports later changes from a complete cursor', () => {
    const i = item(10);
    const first = page(i, undefined, 4);
    expect(first).toMatchObject({ position: 4, end: 10, hasMore: true });
    const rest = page(i, { position: first.position, end: first.end }, 100);
    expect(rest).toMatchObject({ position: 10, end: 10, hasMore: false });
    expect(first.added.length + rest.added.length).toBe(10);
    const id = first.added[0]?.transaction_id ?? '';
    i.modifyTransactions([{ transaction_id: id, name: 'NEW NAME' }]);
    const next = page(i, { position: 10, end: 10 }, 100);
    expect(next.modified.map((t) => [t.transaction_id, t.name, t.merchant_name])).toEqual([[id, 'NEW NAME', null]]);
    // A mid-loop cursor of the old snapshot is now stale.
    expect(i.sync({ position: 4, end: 10 }, 100)).toEqual({ ok: false, reason: 'mutation_during_pagination' });
  });

  it('refuses changes to transactions that do not exist', () => {
    const i = item(3);
    const id = page(i, undefined, 1).added[0]?.transaction_id ?? '';
    i.removeTransactions([id]);
    expect(() => i.removeTransactions([id])).toThrow(UnknownTransactionError);
    expect(() => i.modifyTransactions([{ transaction_id: 'nope' }])).toThrow(UnknownTransactionError);
    expect(i.liveCount).toBe(2);
  });

  it('keeps balances in step with changes (positive = money out)', () => {
    const i = item(0);
    const [checking, , card] = i.accounts;
    if (!checking || !card) throw new Error('accounts');
    const state = (id: string) => i.accountStates([id])[0] ?? fail('no state');
    const [checkingBefore, cardBefore] = [state(checking.accountId), state(card.accountId)];
    i.addTransactions([
      { account_id: checking.accountId, amount: 25 },
      { account_id: card.accountId, amount: 40 },
    ]);
    expect(state(checking.accountId).current_cents).toBe(checkingBefore.current_cents - 2500);
    expect(state(card.accountId).current_cents).toBe(cardBefore.current_cents + 4000);
    // Pending ones only move `available`.
    i.addTransactions([{ account_id: checking.accountId, amount: 10, pending: true }]);
    expect(state(checking.accountId)).toMatchObject({
      current_cents: checkingBefore.current_cents - 2500,
      available_cents: checkingBefore.current_cents - 3500,
      pending_total_cents: 1000,
    });
  });

  it('encodes cursors per item and rejects foreign or forged ones', () => {
    const text = encodeCursor('tagA', { position: 3, end: 9 });
    expect(decodeCursor('tagA', text)).toEqual({ position: 3, end: 9 });
    expect(decodeCursor('tagB', text)).toBeUndefined();
    expect(decodeCursor('tagA', encodeCursor('tagA', { position: 9, end: 3 }))).toBeUndefined();
    expect(decodeCursor('tagA', 'not base64!')).toBeUndefined();
  });
});
