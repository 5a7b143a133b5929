// Reads after writes in the web app: the seq a change answered rides on the next report requests of the same
// workspace, and a change makes the reports on screen fetch again with it.
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { afterBooksChanged, createApiClient, fetchReport, REPORT_PATHS, reportsQueryKeys, type ReportQuery } from '../src/index';

function setup() {
  let workspaceId = 'ws-1';
  const urls: string[] = [];
  const client = createApiClient({
    baseUrl: 'http://api.test',
    getToken: () => 'tok',
    getWorkspaceId: () => workspaceId,
    onUnauthorized: () => undefined,
    fetch: (input) => {
      urls.push(String(input));
      return Promise.resolve(new Response(JSON.stringify({ header: {} }), { status: 200, headers: { 'content-type': 'application/json' } }));
    },
  });
  const seqOf = (url: string | undefined) => new URL(url ?? 'http://x').searchParams.get('seq');
  return { client, urls, seqOf, switchTo: (id: string) => (workspaceId = id) };
}

const query: ReportQuery = { startDate: '2026-01-01', endDate: '2026-01-31', periodicity: 'monthly' };

describe('ledger seq on report requests', () => {
  it('sends no seq before a change, then the highest seq a change of that workspace answered', async () => {
    const { client, urls, seqOf, switchTo } = setup();
    await fetchReport(client, REPORT_PATHS.profitLoss, query);
    expect(seqOf(urls[0])).toBeNull();
    client.ledgerSeq.remember(42);
    client.ledgerSeq.remember(17); // an older answer arriving late does not lower it
    await fetchReport(client, REPORT_PATHS.profitLoss, query);
    expect(urls[1]).toBe('http://api.test/financial-data/profit-loss/v3?startDate=2026-01-01&endDate=2026-01-31&periodicity=monthly&seq=42');
    // Another workspace has its own sequence; coming back finds this one's again.
    switchTo('ws-2');
    await fetchReport(client, REPORT_PATHS.runway, {});
    expect(seqOf(urls[2])).toBeNull();
    switchTo('ws-1');
    await fetchReport(client, REPORT_PATHS.runway, {});
    expect(seqOf(urls[3])).toBe('42');
  });

  it('ignores answers without a usable seq', () => {
    const { client } = setup();
    for (const bad of [undefined, null, 0, -3, 1.5, Number.NaN]) client.ledgerSeq.remember(bad);
    expect(client.ledgerSeq.current()).toBeUndefined();
  });

  it("after a change, a report on screen is fetched again carrying the change's seq", async () => {
    const { client, urls, seqOf } = setup();
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const observer = new QueryObserver(queryClient, {
      queryKey: reportsQueryKeys.profitLoss(query),
      queryFn: ({ signal }) => fetchReport(client, REPORT_PATHS.profitLoss, query, signal),
    });
    const unsubscribe = observer.subscribe(() => undefined);
    try {
      await expect.poll(() => observer.getCurrentResult().status).toBe('success');
      expect(urls).toHaveLength(1);
      expect(seqOf(urls[0])).toBeNull();
      await afterBooksChanged(client, queryClient, 7);
      expect(urls).toHaveLength(2);
      expect(seqOf(urls[1])).toBe('7');
    } finally {
      unsubscribe();
      queryClient.clear();
    }
  });
});
