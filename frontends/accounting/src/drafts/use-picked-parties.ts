import { draftsApi, draftsQueryKeys, partiesApi, useApiClient, type Draft, type DraftEntity } from '@ledgerline/api';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { draftForm, nameRead, partySearchWord, suggestParty } from './state';

/**
 * Drafts read from a file name their vendor (bill) or customer (invoice) only as text. For each draft of the review
 * without a party whose name read fits exactly one active vendor / customer (suggestParty; decision 0029, after decision
 * 0027's suggestedVendor), that party is picked and saved on the draft (PATCH /drafts), once per draft while the review
 * is open; the reviewer can change it in the editor. Nothing is picked for a user who may not edit.
 */
export function usePickPartiesByName(entity: DraftEntity, drafts: readonly Draft[], enabled: boolean): void {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const tried = useRef(new Set<string>());
  useEffect(() => {
    if (!enabled) return;
    const todo = drafts.filter((d) => !tried.current.has(d.id) && draftForm(entity, d.metaData).partyId === '' && partySearchWord(nameRead(d)) !== '');
    if (todo.length === 0) return;
    for (const d of todo) tried.current.add(d.id);
    void (async () => {
      let picked = 0;
      for (const d of todo) {
        const written = nameRead(d);
        const search = partySearchWord(written);
        const candidates: readonly { id: string; name: string }[] =
          entity === 'bill'
            ? (await partiesApi.listVendors(client, { search, status: 'active', filter: '' }, 1)).data
            : (await partiesApi.listCustomers(client, { search, status: 'active' }, 1)).data;
        const party = suggestParty(written, candidates);
        if (!party) continue;
        await draftsApi.update(client, { id: d.id, metaData: { ...d.metaData, ...(entity === 'bill' ? { vendorId: party.id } : { customerId: party.id }) } });
        picked++;
      }
      if (picked > 0) await queryClient.invalidateQueries({ queryKey: draftsQueryKeys.list(entity) });
    })().catch(() => {
      // A failed look-up leaves the party for the reviewer to pick, as if none fitted.
    });
  }, [client, drafts, enabled, entity, queryClient]);
}
