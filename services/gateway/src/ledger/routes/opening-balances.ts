import type { OpeningBalance } from '@ledgerline/proto/ledger/v1/ledger_pb';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { withAmounts } from '../../http/amounts.js';
import { authOf, WRITE, READ } from '../../http/auth.js';
import {
  OpeningBalanceSchema,
  OpeningBalanceBodySchema,
  OpeningBalanceResponseSchema,
  OpeningBalanceChangedSchema,
  OpeningBalanceRemovedSchema,
} from '../schemas.js';
import { ref, responses, WORKSPACE_HEADER_SCHEMA, BEARER } from '../../http/schemas.js';
import { addSchemas } from '../../http/hardening.js';
import { centsToDollars } from '@ledgerline/platform';
import type { LedgerClient } from '../client.js';

const idParams = { type: 'object', properties: { id: { type: 'string', format: 'uuid' } }, required: ['id'] } as const;

const openingBalanceJson = (o: OpeningBalance | undefined) =>
  o
    ? {
        categoryId: o.categoryId,
        openingBalance: centsToDollars(o.amountCents),
        openingBalanceDate: o.date,
        journalEntryId: o.journalEntryId,
        seq: Number(o.seq),
      }
    : null;

/**
 * GET, PUT and DELETE `/categories/{id}/opening-balance` (our route: the spec names none; QuickBooks
 * and Xero set opening balances per account). Setting it again with another amount or date posts a
 * reversal and a new entry; DELETE (or an amount of 0) posts a reversal.
 */
export async function registerOpeningBalanceRoutes(app: FastifyInstance, { ledger }: { ledger: LedgerClient }): Promise<void> {
  addSchemas(app, [OpeningBalanceSchema, OpeningBalanceBodySchema, OpeningBalanceResponseSchema, OpeningBalanceChangedSchema, OpeningBalanceRemovedSchema]);
  const headers = (req: FastifyRequest) => ({ headers: authOf(req).rpcHeaders });
  const common = { tags: ['ledger'], security: BEARER, headers: WORKSPACE_HEADER_SCHEMA, params: idParams };

  app.get<{ Params: { id: string } }>(
    '/categories/:id/opening-balance',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'getOpeningBalance',
        summary: "A balance-sheet account's opening balance (null when it has none)",
        response: responses(200, ref(OpeningBalanceResponseSchema)),
      },
    },
    async (req) => ({ openingBalance: openingBalanceJson((await ledger.getOpeningBalance({ categoryId: req.params.id }, headers(req))).openingBalance) }),
  );

  app.put<{ Params: { id: string }; Body: { openingBalance?: number; openingBalanceDate?: string } }>(
    '/categories/:id/opening-balance',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'setOpeningBalance',
        summary: 'Set the opening balance of a bank, card, asset, liability or equity account (against Opening Balance Equity)',
        body: ref(OpeningBalanceBodySchema),
        response: responses(200, ref(OpeningBalanceChangedSchema)),
      },
    },
    async (req) => {
      const b = req.body ?? {};
      const amountCents = withAmounts((a) => a.cents('openingBalance', b.openingBalance));
      const r = await ledger.setOpeningBalance({ categoryId: req.params.id, amountCents, date: b.openingBalanceDate }, headers(req));
      return { message: r.message, openingBalance: openingBalanceJson(r.openingBalance), seq: Number(r.seq) };
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/categories/:id/opening-balance',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'removeOpeningBalance',
        summary: 'Remove the opening balance of an account (a reversal)',
        response: responses(200, ref(OpeningBalanceRemovedSchema)),
      },
    },
    async (req) => {
      const r = await ledger.removeOpeningBalance({ categoryId: req.params.id }, headers(req));
      return { message: r.message, seq: Number(r.seq) };
    },
  );
}
