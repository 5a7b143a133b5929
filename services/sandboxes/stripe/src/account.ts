// One Stripe account's objects (a connected account, or the platform's own), by id and by type, with Stripe's
// list semantics: newest first, `limit` 1..100, `starting_after` / `ending_before` cursors, `created` ranges.
import type { StripeApiError } from './errors.js';
import { stripeErrors } from './errors.js';

export type StripeObject = Record<string, unknown> & { id: string; object: string; created?: number };

/** The wire `object` name of each id prefix (for `expand[]` and retrieval errors). */
export const PREFIXES: Record<string, string> = {
  acct: 'account',
  cus: 'customer',
  prod: 'product',
  price: 'price',
  sub: 'subscription',
  si: 'subscription_item',
  in: 'invoice',
  ch: 'charge',
  re: 'refund',
  pi: 'payment_intent',
  txn: 'balance_transaction',
  po: 'payout',
  evt: 'event',
  di: 'discount',
};

export interface ListParams {
  limit?: number;
  starting_after?: string;
  ending_before?: string;
  created?: number | { gt?: number; gte?: number; lt?: number; lte?: number };
}

export interface ListPage {
  object: 'list';
  url: string;
  has_more: boolean;
  data: StripeObject[];
}

export class StripeAccount {
  readonly objects = new Map<string, StripeObject>();
  /** Insertion order per wire type: ties of `created` break by it (later inserted = newer). */
  private readonly byType = new Map<string, StripeObject[]>();
  private readonly order = new Map<string, number>();
  private sequence = 0;
  /** Balance transactions included in each payout (payout id → txn ids), the payout's own first. */
  readonly payoutTransactions = new Map<string, string[]>();

  constructor(readonly account: StripeObject) {}

  get id(): string {
    return this.account.id;
  }

  add<T extends StripeObject>(object: T): T {
    this.objects.set(object.id, object);
    this.order.set(object.id, this.sequence++);
    const list = this.byType.get(object.object) ?? [];
    list.push(object);
    this.byType.set(object.object, list);
    return object;
  }

  get(id: string): StripeObject | undefined {
    return this.objects.get(id);
  }

  /** Retrieval by id of an object of `kind` (Stripe's 404 `resource_missing` otherwise). */
  require(kind: string, id: string): StripeObject {
    const object = this.objects.get(id);
    if (!object || object.object !== kind) throw stripeErrors.noSuch(kind, id);
    return object;
  }

  all(kind: string): StripeObject[] {
    return this.byType.get(kind) ?? [];
  }

  count(kind?: string): number {
    if (kind) return this.all(kind).length;
    let total = 0;
    for (const [type, list] of this.byType) if (type !== 'event') total += list.length;
    return total;
  }

  /** Newest first; `filter` narrows before paging. */
  list(kind: string, url: string, params: ListParams, filter?: (o: StripeObject) => boolean, source?: StripeObject[]): ListPage {
    const limit = params.limit ?? 10;
    let rows = (source ?? this.all(kind)).filter((o) => matchesCreated(o, params.created) && (!filter || filter(o)));
    rows = rows.sort((a, b) => (b.created ?? 0) - (a.created ?? 0) || (this.order.get(b.id) ?? 0) - (this.order.get(a.id) ?? 0));
    if (params.starting_after !== undefined) {
      const at = rows.findIndex((o) => o.id === params.starting_after);
      if (at < 0) throw cursorMissing(kind, 'starting_after', params.starting_after);
      const rest = rows.slice(at + 1);
      return { object: 'list', url, has_more: rest.length > limit, data: rest.slice(0, limit) };
    }
    if (params.ending_before !== undefined) {
      const at = rows.findIndex((o) => o.id === params.ending_before);
      if (at < 0) throw cursorMissing(kind, 'ending_before', params.ending_before);
      const before = rows.slice(0, at);
      return { object: 'list', url, has_more: before.length > limit, data: before.slice(Math.max(0, before.length - limit)) };
    }
    return { object: 'list', url, has_more: rows.length > limit, data: rows.slice(0, limit) };
  }
}

function cursorMissing(kind: string, param: string, id: string): StripeApiError {
  return stripeErrors.noSuch(kind, id, param);
}

function matchesCreated(object: StripeObject, created: ListParams['created']): boolean {
  if (created === undefined) return true;
  const at = object.created ?? 0;
  if (typeof created === 'number') return at === created;
  if (created.gt !== undefined && !(at > created.gt)) return false;
  if (created.gte !== undefined && !(at >= created.gte)) return false;
  if (created.lt !== undefined && !(at < created.lt)) return false;
  if (created.lte !== undefined && !(at <= created.lte)) return false;
  return true;
}
