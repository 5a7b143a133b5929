import type { FastifyInstance, FastifyRequest } from 'fastify';
import { WORKSPACE_HEADER } from '../http/auth.js';
import { ErrorResponseSchema, ref, responses, WORKSPACE_HEADER_SCHEMA } from '../http/schemas.js';
import { REPORT_QUERY } from '../reporting/schemas.js';

/**
 * GET /dashboard (issue #13): the dashboard's report widgets in one request instead of one each. Each widget is its
 * own route answered in-process (Fastify's inject, with the caller's credentials and workspace), so its checks,
 * tenancy, caching and shape are exactly the route's; one widget failing leaves the others' answers (per-widget
 * errors rather than all-or-nothing). A query a route refuses (a malformed date: 400; another workspace named: 404)
 * is refused whole, as that route answers it.
 */
const WIDGETS = {
  profitLoss: { path: '/financial-data/profit-loss/v3', query: 'report' },
  cashFlow: { path: '/financial-data/cash-flow', query: 'report' },
  assetBalanceGraph: { path: '/financial-data/get-asset-balance-graph', query: 'report' },
  runway: { path: '/financial-data/runway', query: 'seq' },
  spending: { path: '/financial-data/spending', query: 'spending' },
  topMerchants: { path: '/financial-data/top-merchant', query: 'spending' },
} as const;
export type DashboardWidget = keyof typeof WIDGETS;

/** What each widget's route takes from the dashboard's query. */
const QUERY_FIELDS: Readonly<Record<(typeof WIDGETS)[DashboardWidget]['query'], readonly string[]>> = {
  report: [...Object.keys(REPORT_QUERY.properties), 'workspaces'],
  spending: ['startDate', 'endDate', 'groups', 'tags', 'moneyType', 'seq', 'workspaces'],
  seq: ['seq'],
};

type DashboardQuery = Record<string, string | undefined>;

const DASHBOARD_QUERY = {
  type: 'object',
  properties: {
    ...REPORT_QUERY.properties,
    workspaces: {
      type: 'string',
      maxLength: 2000,
      description: 'Comma-joined workspace ids (at most 20), each one the caller belongs to, as for every report.',
    },
  },
} as const;

const WidgetAnswerSchema = {
  $id: 'DashboardWidgetAnswer',
  type: 'object',
  description: "One widget: `data`, the answer of its route (the same shape as that route's), or `error`, that route's error answer.",
  properties: {
    status: { type: 'integer', description: "The status the widget's route answered." },
    data: { description: "The widget route's answer (see the route named in the summary)." },
    error: ref(ErrorResponseSchema),
  },
  required: ['status'],
} as const;

const DashboardResponseSchema = {
  $id: 'DashboardResponse',
  type: 'object',
  properties: Object.fromEntries(Object.keys(WIDGETS).map((name) => [name, ref(WidgetAnswerSchema)])),
  required: Object.keys(WIDGETS),
  additionalProperties: false,
} as const;

function pick(query: DashboardQuery, fields: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fields) {
    const v = query[f];
    if (v !== undefined) out[f] = v;
  }
  return out;
}

/** The caller's credentials and workspace, for the in-process requests. */
function forwardedHeaders(req: FastifyRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['authorization', WORKSPACE_HEADER.toLowerCase(), 'x-request-id']) {
    const value = req.headers[name];
    if (typeof value === 'string') out[name] = value;
  }
  return out;
}

export function registerDashboardRoutes(app: FastifyInstance): void {
  for (const schema of [WidgetAnswerSchema, DashboardResponseSchema]) app.addSchema(schema);
  app.get<{ Querystring: DashboardQuery }>(
    '/dashboard',
    {
      config: { auth: { workspace: 'required' as const } },
      schema: {
        tags: ['reports'],
        security: [{ bearerAuth: [] }],
        headers: WORKSPACE_HEADER_SCHEMA,
        operationId: 'getDashboard',
        summary: `The dashboard's widgets in one request: ${Object.entries(WIDGETS)
          .map(([name, w]) => `${name} (GET ${w.path})`)
          .join(', ')}; each with its route's answer or its error`,
        querystring: DASHBOARD_QUERY,
        response: responses(200, ref(DashboardResponseSchema)),
      },
    },
    async (req, reply) => {
      const headers = forwardedHeaders(req);
      const answers = await Promise.all(
        (Object.entries(WIDGETS) as [DashboardWidget, (typeof WIDGETS)[DashboardWidget]][]).map(async ([name, w]) => {
          const res = await app.inject({ method: 'GET', url: w.path, query: pick(req.query, QUERY_FIELDS[w.query]), headers });
          let body: unknown;
          try {
            body = res.json();
          } catch {
            body = { message: 'The widget answered no JSON', appErrorCode: 'INTERNAL_ERROR', statusCode: 502 };
          }
          return [name, res.statusCode, body] as const;
        }),
      );
      // Bad input, or a workspace named that is not the caller's, is the query's, not a widget's: refused whole, with
      // the route's answer (it names the field).
      const refused = answers.find(([, status]) => status === 400) ?? answers.find(([, status]) => status === 404);
      if (refused) return reply.code(refused[1]).send(refused[2]);
      reply.header('cache-control', 'private, no-store');
      return Object.fromEntries(answers.map(([name, status, body]) => [name, status === 200 ? { status, data: body } : { status, error: body }]));
    },
  );
}
