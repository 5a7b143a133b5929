import { describe, expect, it } from 'vitest';
import { onePage } from '../src/records/RecordList';

const query = <R>(data: { data: R[] } | undefined) => ({
  data,
  isPending: data === undefined,
  isError: false,
  error: null,
  isFetching: false,
  refetch: () => undefined,
});

describe('onePage: a whole list as the list scaffold’s one page (the fixed assets)', () => {
  it('is one page whose count is the list’s length, with no next page to scroll to', () => {
    const list = onePage(query({ data: [{ id: 'a' }, { id: 'b' }] }));
    expect(list.data).toEqual({ pages: [{ data: [{ id: 'a' }, { id: 'b' }], meta: { itemCount: 2 } }] });
    expect([list.hasNextPage, list.isFetchingNextPage, list.isPending]).toEqual([false, false, false]);
  });

  it('has no pages while the list is loading, so the scaffold shows its spinner, not an empty list', () => {
    const list = onePage(query(undefined));
    expect(list.data).toBeUndefined();
    expect(list.isPending).toBe(true);
  });
});
