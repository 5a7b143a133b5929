import type { Knex, Logger } from '@ledgerline/platform';
import type { PartyLookup } from '../clients/parties.js';
import { moveBillsToVendor } from '../store/party-moves.js';

/**
 * A vendor merge (POST /vendors/merge in the parties service) moves the merged vendor's bills to the kept vendor. The
 * books do not change: Accounts Payable is one account and a bill's posted entry names no vendor account, so no new
 * version is posted; the bill's `vendor` (id and the name shown) is what moves. Bills already voided move too (they
 * are still listed). The kept vendor's name is asked of the parties service; if it cannot answer now, the ids move
 * anyway and each bill keeps the name it was saved with until its next save (the move itself must not wait on a call).
 */
export function createVendorMerge({ parties, logger }: { parties: PartyLookup; logger: Logger }) {
  return {
    async moveBills(trx: Knex.Transaction, workspaceId: string, fromVendorId: string, toVendorId: string): Promise<number> {
      let name: string | undefined;
      try {
        name = (await parties.vendor({ workspaceId }, toVendorId))?.name;
      } catch (err) {
        logger.warn({ err, workspaceId, toVendorId }, "the kept vendor's name could not be read; the bills move with the names they were saved with");
      }
      return moveBillsToVendor(trx, fromVendorId, toVendorId, name);
    },
  };
}
