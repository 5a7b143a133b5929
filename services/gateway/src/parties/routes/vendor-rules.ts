import type { FastifyInstance, FastifyRequest } from 'fastify';
import { withAmounts } from '../../http/amounts.js';
import { authOf, WRITE, READ } from '../../http/auth.js';
import { addSchemas } from '../../http/hardening.js';
import { BEARER, idParams, ref, responses, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import type { PartiesClient } from '../client.js';
import {
  ImpactedSchema,
  VENDOR_RULE_LIST_QUERY,
  VendorRuleAnswerSchema,
  VendorRuleBodySchema,
  VendorRuleDeletedSchema,
  VendorRuleListSchema,
  VendorRuleSchema,
} from '../schemas.js';
import type { RuleBody } from '../schemas.js';
import { ruleDeletedMessage, vendorRuleJson } from '../present.js';

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
        querystring: VENDOR_RULE_LIST_QUERY,
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
