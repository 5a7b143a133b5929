import type { PartyCreditFields } from '@ledgerline/proto/parties/v1/parties_pb';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { withAmounts } from '../../http/amounts.js';
import { authOf, WRITE, READ } from '../../http/auth.js';
import { addSchemas } from '../../http/hardening.js';
import { BEARER, idParams, ref, responses, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import type { PartiesClient } from '../client.js';
import {
  CreditMemoAnswerSchema,
  CreditMemoBodySchema,
  CreditMemoDeletedSchema,
  CreditMemoListSchema,
  CreditMemoSchema,
  CreditPageMetaSchema,
  KINDS,
  LineItemSchema,
  PartyRefSchema,
  VendorCreditAnswerSchema,
  VendorCreditBodySchema,
  VendorCreditDeletedSchema,
  VendorCreditListSchema,
  VendorCreditSchema,
  listQuery,
} from '../schemas.js';
import type { CreditBody, Kind } from '../schemas.js';
import { creditJson } from '../present.js';

/**
 * Spec documents-parties-integrations §3 "Vendor credit" / "Credit memo", §5 "Payment to vendor / from customer",
 * §7 (issue #17 item 5): vendor credits under /vendors, credit memos under /customers, each route one PartiesService
 * RPC. Every create, edit and delete posts through the ledger (a balanced entry, source VendorCredit / CreditMemo)
 * and answers its `seq`. Viewers read; writes need a role above Viewer. Dollars here, cents in the service.
 */

type FieldsInit = Partial<Omit<PartyCreditFields, '$typeName' | '$unknown' | 'lineItems'>> & {
  lineItems?: { description: string; categoryId: string; amountCents: bigint }[];
};

/** A body to the service's fields: present keys only (PATCH changes only what it names); amounts to cents (400 naming a bad one). */
function fieldsOf(kind: Kind, b: CreditBody): FieldsInit {
  const f: FieldsInit = {};
  if (b.paymentDate !== undefined) f.paymentDate = b.paymentDate;
  const partyId = kind === 'vendor' ? b.vendorId : b.customerId;
  if (partyId !== undefined) f.partyId = partyId;
  if (b.description !== undefined) f.description = b.description;
  if (kind === 'customer' && b.refNo !== undefined) f.refNo = b.refNo;
  if (b.lineItems !== undefined) {
    f.hasLineItems = true;
    f.lineItems = withAmounts((a) =>
      (b.lineItems ?? []).map((l, i) => ({
        description: l.description ?? '',
        categoryId: l.categoryId ?? '',
        amountCents: a.cents(`lineItems.${i}.amount`, l.amount) ?? 0n,
      })),
    );
  }
  return f;
}

export async function registerCreditRoutes(app: FastifyInstance, { client }: { client: PartiesClient }): Promise<void> {
  addSchemas(app, [
    LineItemSchema,
    PartyRefSchema,
    VendorCreditSchema,
    CreditMemoSchema,
    CreditPageMetaSchema,
    VendorCreditBodySchema,
    CreditMemoBodySchema,
    VendorCreditAnswerSchema,
    CreditMemoAnswerSchema,
    VendorCreditListSchema,
    CreditMemoListSchema,
    VendorCreditDeletedSchema,
    CreditMemoDeletedSchema,
  ]);
  const headers = (req: FastifyRequest) => ({ headers: authOf(req).rpcHeaders });

  const routes = (kind: Kind, s: { body: { $id: string }; answer: { $id: string }; list: { $id: string }; one: { $id: string }; deleted: { $id: string } }) => {
    const k = KINDS[kind];
    const common = { tags: [k.tag], security: BEARER, headers: WORKSPACE_HEADER_SCHEMA };
    const rpc =
      kind === 'vendor'
        ? {
            create: client.createVendorCredit.bind(client),
            list: client.listVendorCredits.bind(client),
            get: client.getVendorCredit.bind(client),
            update: client.updateVendorCredit.bind(client),
            remove: client.deleteVendorCredit.bind(client),
          }
        : {
            create: client.createCreditMemo.bind(client),
            list: client.listCreditMemos.bind(client),
            get: client.getCreditMemo.bind(client),
            update: client.updateCreditMemo.bind(client),
            remove: client.deleteCreditMemo.bind(client),
          };
    const singular = kind === 'vendor' ? 'vendor-credit' : 'credit-memo';
    const plural = kind === 'vendor' ? 'vendor-credits' : 'credit-memos';
    const Name = kind === 'vendor' ? 'VendorCredit' : 'CreditMemo';

    app.post<{ Body: CreditBody }>(
      `${k.base}/${singular}`,
      {
        config: WRITE,
        schema: {
          ...common,
          operationId: `create${Name}`,
          summary: `Record a ${k.what.toLowerCase()}: one balanced ledger entry (source ${Name})`,
          body: ref(s.body),
          response: responses(201, ref(s.answer)),
        },
      },
      async (req, reply) => {
        const r = await rpc.create({ fields: fieldsOf(kind, req.body ?? {}) }, headers(req));
        reply.code(201);
        return { message: `${k.what} created`, [k.one]: creditJson(kind, r.credit), seq: Number(r.seq) };
      },
    );

    app.get<{ Querystring: { page?: number; take?: number; vendorId?: string; customerId?: string } }>(
      `${k.base}/${plural}`,
      {
        config: READ,
        schema: {
          ...common,
          operationId: `list${Name}s`,
          summary: `A page of the workspace's ${k.what.toLowerCase()}s (20 by default), newest first`,
          querystring: listQuery(kind),
          response: responses(200, ref(s.list)),
        },
      },
      async (req) => {
        const q = req.query;
        const r = await rpc.list({ page: q.page ?? 0, take: q.take ?? 0, partyId: (kind === 'vendor' ? q.vendorId : q.customerId) ?? '' }, headers(req));
        return { data: r.data.map((c) => creditJson(kind, c)), meta: r.meta };
      },
    );

    app.get<{ Params: { id: string } }>(
      `${k.base}/${singular}/:id`,
      {
        config: READ,
        schema: { ...common, operationId: `get${Name}`, summary: `One ${k.what.toLowerCase()}`, params: idParams, response: responses(200, ref(s.one)) },
      },
      async (req) => creditJson(kind, (await rpc.get({ id: req.params.id }, headers(req))).credit),
    );

    app.patch<{ Params: { id: string }; Body: CreditBody }>(
      `${k.base}/${singular}/:id`,
      {
        config: WRITE,
        schema: {
          ...common,
          operationId: `update${Name}`,
          summary: `Change a ${k.what.toLowerCase()} (only the fields sent): the ledger reverses its entry and posts the new one`,
          params: idParams,
          body: ref(s.body),
          response: responses(200, ref(s.answer)),
        },
      },
      async (req) => {
        const r = await rpc.update({ id: req.params.id, fields: fieldsOf(kind, req.body ?? {}) }, headers(req));
        return { message: `${k.what} updated`, [k.one]: creditJson(kind, r.credit), seq: Number(r.seq) };
      },
    );

    app.delete<{ Params: { id: string } }>(
      `${k.base}/${singular}/:id`,
      {
        config: WRITE,
        schema: {
          ...common,
          operationId: `delete${Name}`,
          summary: `Delete a ${k.what.toLowerCase()}: the ledger reverses its entry (voided)`,
          params: idParams,
          response: responses(200, ref(s.deleted)),
        },
      },
      async (req) => {
        const r = await rpc.remove({ id: req.params.id }, headers(req));
        return { message: `${k.what} deleted`, seq: Number(r.seq) };
      },
    );
  };

  routes('vendor', {
    body: VendorCreditBodySchema,
    answer: VendorCreditAnswerSchema,
    list: VendorCreditListSchema,
    one: VendorCreditSchema,
    deleted: VendorCreditDeletedSchema,
  });
  routes('customer', {
    body: CreditMemoBodySchema,
    answer: CreditMemoAnswerSchema,
    list: CreditMemoListSchema,
    one: CreditMemoSchema,
    deleted: CreditMemoDeletedSchema,
  });
}
