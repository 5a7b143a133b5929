import { centsToDollars } from '@ledgerline/platform';
import type { VendorRule } from '@ledgerline/proto/parties/v1/parties_pb';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { withAmounts } from '../../http/amounts.js';
import { authOf, WRITE, READ } from '../../http/auth.js';
import { addSchemas } from '../../http/hardening.js';
import { BEARER, bool, idParams, int, num, object, ref, responses, str, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import type { PartiesClient } from '../client.js';

/**
 * Vendor rules (spec documents-parties-integrations §3 "Vendor rule", §5, §7; issue #17 item 4): each route one
 * PartiesService RPC with the caller's tenancy headers. Viewers read; writes need a role above Viewer. Money is
 * decimal dollars here, cents in the services. Creating or changing a rule applies it at once (the ledger, one
 * set-based change); deleting one keeps what it categorised (the answer says how many).
 */

/**
 * Creating or changing a rule waits for the ledger to apply it (one transaction, ~2 ms per re-categorised
 * transaction under load: bench-results/vendor-rules.md), longer than SERVICE_TIMEOUT_MS allows other calls.
 */
export const RULE_APPLY_TIMEOUT_MS = 120_000;

const TAGS = ['parties'] as const;
const text = (maxLength: number) => ({ type: 'string', maxLength }) as const;
const named = (description: string) =>
  ({ type: ['object', 'null'], description, properties: { id: str, name: str }, required: ['id', 'name'], additionalProperties: false }) as const;

const ImpactedSchema = {
  $id: 'VendorRuleImpactedTransaction',
  ...object({ id: str, description: str, amount: num, dateTime: str, categoryId: str }, ['id', 'description', 'amount', 'dateTime', 'categoryId']),
};

const VendorRuleSchema = {
  $id: 'VendorRule',
  type: 'object',
  description:
    'A vendor rule (spec §3). conditions: the rule in words. impactedTransactions: the transactions it categorised (appliedRuleId = the rule), newest first, at most 100; ' +
    "impactedTransactionCount: all of them. Amounts compare with the transaction amount's absolute value; descriptions case-insensitively.",
  properties: {
    id: str,
    name: str,
    vendor: named('The vendor the rule gives its transactions, or null.'),
    category: named('The category the rule gives its transactions.'),
    ruleApplyDateTime: str,
    descriptionSign: str,
    descriptionValue: str,
    amountSign: str,
    amountValue: num,
    upperAmountValue: num,
    conditions: { type: 'array', items: str },
    sourceAccount: named('The bank account the transactions must come from, or null.'),
    impactedTransactions: { type: 'array', items: ref(ImpactedSchema) },
    impactedTransactionCount: int,
    vendorId: str,
    categoryId: str,
    sourceId: str,
    createdOn: str,
    updatedOn: str,
  },
  required: [
    'id',
    'name',
    'vendor',
    'category',
    'ruleApplyDateTime',
    'descriptionSign',
    'descriptionValue',
    'amountSign',
    'amountValue',
    'upperAmountValue',
    'conditions',
    'sourceAccount',
    'impactedTransactions',
    'impactedTransactionCount',
    'vendorId',
    'categoryId',
    'sourceId',
    'createdOn',
    'updatedOn',
  ],
  additionalProperties: false,
} as const;

const VendorRuleListSchema = {
  $id: 'VendorRuleList',
  ...object(
    {
      data: { type: 'array', items: ref(VendorRuleSchema) },
      meta: ref({ $id: 'PartiesPageMeta' }),
    },
    ['data', 'meta'],
  ),
};
const VendorRuleAnswerSchema = {
  $id: 'VendorRuleAnswer',
  ...object({ message: str, rule: ref(VendorRuleSchema), categorised: { ...int, description: 'Transactions this change categorised (or re-marked) now.' } }, [
    'message',
    'rule',
    'categorised',
  ]),
};
const VendorRuleDeletedSchema = {
  $id: 'VendorRuleDeleted',
  ...object({ message: str, deleted: bool, keptCategorisations: { ...int, description: 'Transactions that keep the category the rule gave them.' } }, [
    'message',
    'deleted',
    'keptCategorisations',
  ]),
};

// Body: shape only; the parties service owns the rules and messages (spec §5).
const VendorRuleBodySchema = {
  $id: 'VendorRuleBody',
  ...object({
    name: text(200),
    vendorId: text(100),
    categoryId: text(100),
    ruleApplyDateTime: { ...text(40), description: 'The rule applies to transactions dated on or after this day (YYYY-MM-DD or an ISO date and time).' },
    descriptionSign: { ...text(20), description: 'equals or contains (default contains).' },
    descriptionValue: text(200),
    amountSign: { ...text(20), description: 'equals, greater_than, less_than or between (default equals).' },
    amountValue: { ...num, description: 'Dollars; 0 or absent: no amount condition.' },
    upperAmountValue: { ...num, description: 'Dollars; for between, above amountValue.' },
    sourceId: { ...text(100), description: 'A bank account id: only transactions of that account.' },
  }),
};

const LIST_QUERY = { type: 'object', properties: { page: int, take: int, vendorId: text(100) }, additionalProperties: false } as const;

interface RuleBody {
  name?: string;
  vendorId?: string;
  categoryId?: string;
  ruleApplyDateTime?: string;
  descriptionSign?: string;
  descriptionValue?: string;
  amountSign?: string;
  amountValue?: number;
  upperAmountValue?: number;
  sourceId?: string;
}

export function vendorRuleJson(r: VendorRule | undefined) {
  if (!r) throw new Error('the parties service answered no vendor rule');
  return {
    id: r.id,
    name: r.name,
    vendor: r.vendorId ? { id: r.vendorId, name: r.vendorName } : null,
    category: { id: r.categoryId, name: r.categoryName },
    ruleApplyDateTime: r.ruleApplyDateTime,
    descriptionSign: r.descriptionSign,
    descriptionValue: r.descriptionValue,
    amountSign: r.amountSign,
    amountValue: centsToDollars(r.amountCents),
    upperAmountValue: centsToDollars(r.upperAmountCents),
    conditions: r.conditions,
    sourceAccount: r.sourceId ? { id: r.sourceId, name: r.sourceAccountName } : null,
    impactedTransactions: r.impacted.map((i) => ({
      id: i.id,
      description: i.description,
      amount: centsToDollars(i.amountCents),
      dateTime: i.date,
      categoryId: i.categoryId,
    })),
    impactedTransactionCount: r.impactedCount,
    vendorId: r.vendorId,
    categoryId: r.categoryId,
    sourceId: r.sourceId,
    createdOn: r.createdOn,
    updatedOn: r.updatedOn,
  };
}

/** Body to the service's fields: present keys only (PATCH changes only what it names); dollars to cents (a bad amount: 400). */
/** DELETE's answer: past categorisations stay (as in QuickBooks Online), and the answer says how many, in good English. */
function ruleDeletedMessage(kept: number): string {
  if (kept <= 0) return 'Vendor rule deleted';
  if (kept === 1) return 'Vendor rule deleted. The 1 transaction it categorised keeps its category.';
  return `Vendor rule deleted. The ${kept.toLocaleString('en-US')} transactions it categorised keep their category.`;
}

function fieldsOf(b: RuleBody) {
  return withAmounts((a) => {
    const amountCents = a.cents('amountValue', b.amountValue);
    const upperAmountCents = a.cents('upperAmountValue', b.upperAmountValue);
    return {
      name: b.name,
      vendorId: b.vendorId,
      categoryId: b.categoryId,
      ruleApplyDateTime: b.ruleApplyDateTime,
      descriptionSign: b.descriptionSign,
      descriptionValue: b.descriptionValue,
      amountSign: b.amountSign,
      amountCents,
      upperAmountCents,
      sourceId: b.sourceId,
    };
  });
}

export async function registerVendorRuleRoutes(app: FastifyInstance, { client }: { client: PartiesClient }): Promise<void> {
  addSchemas(app, [ImpactedSchema, VendorRuleSchema, VendorRuleListSchema, VendorRuleAnswerSchema, VendorRuleDeletedSchema, VendorRuleBodySchema]);
  const headers = (req: FastifyRequest) => ({ headers: authOf(req).rpcHeaders });
  const common = { tags: TAGS, security: BEARER, headers: WORKSPACE_HEADER_SCHEMA };

  app.get<{ Querystring: { page?: number; take?: number; vendorId?: string } }>(
    '/vendors/rule-engines',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'listVendorRules',
        summary: "A page of the workspace's vendor rules (newest first), optionally one vendor's",
        querystring: LIST_QUERY,
        response: responses(200, ref(VendorRuleListSchema)),
      },
    },
    async (req) => {
      const r = await client.listVendorRules({ page: req.query.page ?? 0, take: req.query.take ?? 0, vendorId: req.query.vendorId ?? '' }, headers(req));
      return { data: r.data.map(vendorRuleJson), meta: r.meta };
    },
  );

  app.post<{ Body: RuleBody }>(
    '/vendors/rule-engines',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'createVendorRule',
        summary: 'Add a vendor rule; it categorises the existing editable transactions from its date on, and new ones on import',
        body: ref(VendorRuleBodySchema),
        response: responses(201, ref(VendorRuleAnswerSchema)),
      },
    },
    async (req, reply) => {
      const r = await client.createVendorRule({ fields: fieldsOf(req.body ?? {}) }, { ...headers(req), timeoutMs: RULE_APPLY_TIMEOUT_MS });
      reply.code(201);
      return { message: 'Vendor rule created', rule: vendorRuleJson(r.rule), categorised: r.categorised };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/vendors/rule-engines/:id',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'getVendorRule',
        summary: 'One vendor rule with the transactions it categorised',
        params: idParams,
        response: responses(200, ref(VendorRuleSchema)),
      },
    },
    async (req) => vendorRuleJson((await client.getVendorRule({ id: req.params.id }, headers(req))).rule),
  );

  app.patch<{ Params: { id: string }; Body: RuleBody }>(
    '/vendors/rule-engines/:id',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'updateVendorRule',
        summary: 'Change a vendor rule (only the fields sent) and apply it again; what it categorised before stays',
        params: idParams,
        body: ref(VendorRuleBodySchema),
        response: responses(200, ref(VendorRuleAnswerSchema)),
      },
    },
    async (req) => {
      const r = await client.updateVendorRule({ id: req.params.id, fields: fieldsOf(req.body ?? {}) }, { ...headers(req), timeoutMs: RULE_APPLY_TIMEOUT_MS });
      return { message: 'Vendor rule updated', rule: vendorRuleJson(r.rule), categorised: r.categorised };
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/vendors/rule-engines/:id',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'deleteVendorRule',
        summary: 'Delete a vendor rule; the transactions it categorised keep their category',
        params: idParams,
        response: responses(200, ref(VendorRuleDeletedSchema)),
      },
    },
    async (req) => {
      const r = await client.deleteVendorRule({ id: req.params.id }, headers(req));
      const kept = r.keptCategorisations;
      return { message: ruleDeletedMessage(kept), deleted: true, keptCategorisations: kept };
    },
  );
}
