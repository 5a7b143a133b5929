import type { OpeningBalance } from '@ledgerline/proto/ledger/v1/ledger_pb';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { withAmounts } from '../../http/amounts.js';
import { authOf, WRITE, READ } from '../../http/auth.js';
import { SEQ_PROPERTY } from '../schemas.js';
import { ref, responses, WORKSPACE_HEADER_SCHEMA, BEARER } from '../../http/schemas.js';
import { addSchemas } from '../../http/hardening.js';
import { centsToDollars } from '@ledgerline/platform';
import type { LedgerClient } from '../client.js';

/**
 * REST shapes of opening balances. Money is decimal dollars at this edge, in the account's normal
 * direction (a bank account's positive balance is money in it; a loan's is money owed).
 */
export const OpeningBalanceSchema = {
  $id: 'OpeningBalance',
  type: 'object',
  description: "A balance-sheet account's opening balance: an OpeningBalance entry against Opening Balance Equity.",
  properties: {
    categoryId: { type: 'string' },
    openingBalance: { type: 'number', description: "Dollars, in the account's normal direction." },
    openingBalanceDate: { type: 'string', description: 'YYYY-MM-DD: the entry is dated this day.' },
    journalEntryId: { type: 'string' },
    seq: { type: 'integer', description: "The ledger's commit sequence of the entry (reports wait for it)." },
  },
  required: ['categoryId', 'openingBalance', 'openingBalanceDate', 'journalEntryId', 'seq'],
  additionalProperties: false,
} as const;

export const OpeningBalanceBodySchema = {
  $id: 'OpeningBalanceBody',
  type: 'object',
  properties: {
    openingBalance: { type: 'number', description: "Dollars (2 decimals), in the account's normal direction; 0 removes it." },
    openingBalanceDate: { type: 'string', maxLength: 100, description: 'YYYY-MM-DD.' },
  },
  additionalProperties: false,
} as const;

export const OpeningBalanceResponseSchema = {
  $id: 'OpeningBalanceResponse',
  type: 'object',
  properties: {
    message: { type: 'string' },
    openingBalance: { anyOf: [{ $ref: 'OpeningBalance#' }, { type: 'null' }] },
    seq: { ...SEQ_PROPERTY, description: `${SEQ_PROPERTY.description} Only in the answer to PUT.` },
  },
  required: ['openingBalance'],
  additionalProperties: false,
} as const;

export const OpeningBalanceRemovedSchema = {
  $id: 'OpeningBalanceRemoved',
  type: 'object',
  properties: { message: { type: 'string' }, seq: SEQ_PROPERTY },
  required: ['message', 'seq'],
  additionalProperties: false,
} as const;

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
  addSchemas(app, [OpeningBalanceSchema, OpeningBalanceBodySchema, OpeningBalanceResponseSchema, OpeningBalanceRemovedSchema]);
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
        response: responses(200, ref(OpeningBalanceResponseSchema)),
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
