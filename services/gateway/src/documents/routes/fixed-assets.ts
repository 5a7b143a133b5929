import { centsToDollars } from '@ledgerline/platform';
import type { FixedAsset } from '@ledgerline/proto/documents/v1/fixed_assets_pb';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authOf, WRITE, READ } from '../../http/auth.js';
import { addSchemas } from '../../http/hardening.js';
import { BEARER, bool, idParams, num, ref, responses, str, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import type { FixedAssetsClient } from '../client.js';

/**
 * Fixed assets (spec documents-parties-integrations "Fixed asset" and §7; issue #19 item 6): GET /accounting/fixed-assets,
 * GET and DELETE /accounting/fixed-asset/{id}, POST /accounting/fixed-asset (from a bank transaction: its purchase is
 * re-booked to the asset account), POST /accounting/fixed-asset/stop/{id}. The documents service owns the rules and
 * their messages (negatives refused naming the field); money is decimal dollars here.
 */
const text = (maxLength: number, description: string) => ({ type: 'string', maxLength, description }) as const;
const METHODS = ['STRAIGHT_LINE', 'UNITS_OF_PRODUCTION', 'DOUBLE_DECLINING_BALANCE', 'SUM_OF_YEARS_DIGITS'] as const;

export const DepreciationRowSchema = {
  $id: 'DepreciationRow',
  type: 'object',
  additionalProperties: false,
  description: "One month of the schedule: posted (isDepreciated) by the scheduler at the month's last day, exactly once.",
  properties: {
    id: str,
    depreciationDateTime: { type: 'string', description: "The month's last day, YYYY-MM-DD: the date of its entry." },
    depreciationAsset: { type: 'string', description: "The asset's id." },
    isDepreciated: bool,
    beginningCarryingValue: num,
    endingCarryingValue: num,
    depreciationAmount: num,
    accumulatedDepreciation: num,
    journalEntryId: str,
  },
  required: [
    'id',
    'depreciationDateTime',
    'depreciationAsset',
    'isDepreciated',
    'beginningCarryingValue',
    'endingCarryingValue',
    'depreciationAmount',
    'accumulatedDepreciation',
    'journalEntryId',
  ],
} as const;

export const FixedAssetSchema = {
  $id: 'FixedAsset',
  type: 'object',
  additionalProperties: false,
  properties: {
    id: str,
    referenceWorkspaceTransaction: { type: 'string', description: 'The bank transaction of the purchase (linked: not editable directly).' },
    purchaseDate: str,
    description: str,
    assetType: {
      type: 'object',
      additionalProperties: false,
      properties: { id: str, name: str },
      required: ['id', 'name'],
      description: 'The asset account of the chart the purchase is booked to.',
    },
    depreciationStartDate: str,
    usefulLife: num,
    cost: num,
    salvageValue: num,
    totalEstimatedUnits: num,
    unitProducedPerYear: num,
    method: { type: 'string', enum: METHODS },
    status: {
      type: 'string',
      enum: ['Pending', 'Active', 'Stopped', 'Fully Depreciated'],
      description: 'Pending: the purchase is being booked; Stopped: no further depreciation after stoppedOn.',
    },
    stoppedOn: { type: ['string', 'null'] },
    accumulatedDepreciation: { ...num, description: 'What is posted so far.' },
    carryingValue: { ...num, description: 'cost − accumulatedDepreciation.' },
    merchantName: str,
    qboSynced: bool,
    createdAt: str,
    schedule: { type: 'array', items: ref(DepreciationRowSchema), description: 'Only in GET /accounting/fixed-asset/{id} and the answers of create and stop.' },
  },
  required: [
    'id',
    'referenceWorkspaceTransaction',
    'purchaseDate',
    'description',
    'assetType',
    'depreciationStartDate',
    'usefulLife',
    'cost',
    'salvageValue',
    'totalEstimatedUnits',
    'unitProducedPerYear',
    'method',
    'status',
    'stoppedOn',
    'accumulatedDepreciation',
    'carryingValue',
    'merchantName',
    'qboSynced',
    'createdAt',
  ],
} as const;

const FixedAssetBodySchema = {
  $id: 'FixedAssetBody',
  type: 'object',
  additionalProperties: false,
  properties: {
    transactionId: text(64, 'The bank transaction of the purchase (money out, editable). Required.'),
    purchaseDate: text(10, 'YYYY-MM-DD. Required.'),
    depreciationStartDate: text(10, 'YYYY-MM-DD, not before purchaseDate: its month is the first of the schedule. Required.'),
    description: text(500, 'What the asset is.'),
    assetTypeId: text(64, 'The asset account (chart of accounts, class Assets, e.g. Property and Equipment). Required.'),
    cost: { type: 'number', description: "The purchase transaction's amount. Required; not negative." },
    salvageValue: { type: 'number', description: 'Default 0; not negative, not more than cost.' },
    usefulLife: { type: 'number', description: 'Whole years (1 to 100); not negative. Required except for units of production.' },
    method: { type: 'string', enum: METHODS, description: 'Default STRAIGHT_LINE.' },
    totalEstimatedUnits: { type: 'number', description: "Units of production: the units over the asset's life; not negative." },
    unitProducedPerYear: { type: 'number', description: 'Units of production: units a year (a twelfth a month); not negative.' },
  },
} as const;
const FixedAssetAnswerSchema = {
  $id: 'FixedAssetAnswer',
  type: 'object',
  additionalProperties: false,
  properties: { message: str, fixedAsset: ref(FixedAssetSchema), seq: num },
  required: ['message', 'fixedAsset'],
} as const;
const FixedAssetListSchema = {
  $id: 'FixedAssetList',
  type: 'object',
  additionalProperties: false,
  properties: { data: { type: 'array', items: ref(FixedAssetSchema) } },
  required: ['data'],
} as const;
const DeletedAnswerSchema = {
  $id: 'FixedAssetDeleted',
  type: 'object',
  additionalProperties: false,
  properties: { message: str, id: str, seq: num },
  required: ['message', 'id', 'seq'],
} as const;

const dollars = (c: bigint) => centsToDollars(c);

export function fixedAssetJson(a: FixedAsset | undefined, withSchedule: boolean) {
  if (!a) return undefined;
  return {
    id: a.id,
    referenceWorkspaceTransaction: a.referenceWorkspaceTransaction,
    purchaseDate: a.purchaseDate,
    description: a.description,
    assetType: { id: a.assetTypeId, name: a.assetTypeName },
    depreciationStartDate: a.depreciationStartDate,
    usefulLife: a.usefulLife,
    cost: dollars(a.costCents),
    salvageValue: dollars(a.salvageValueCents),
    totalEstimatedUnits: a.totalEstimatedUnits,
    unitProducedPerYear: a.unitProducedPerYear,
    method: a.method,
    status: a.status,
    stoppedOn: a.stoppedOn || null,
    accumulatedDepreciation: dollars(a.accumulatedDepreciationCents),
    carryingValue: dollars(a.carryingValueCents),
    merchantName: a.merchantName,
    qboSynced: a.qboSynced,
    createdAt: a.createdAt,
    ...(withSchedule
      ? {
          schedule: a.schedule.map((m) => ({
            id: m.id,
            depreciationDateTime: m.depreciationDateTime,
            depreciationAsset: a.id,
            isDepreciated: m.isDepreciated,
            beginningCarryingValue: dollars(m.beginningCarryingValueCents),
            endingCarryingValue: dollars(m.endingCarryingValueCents),
            depreciationAmount: dollars(m.depreciationAmountCents),
            accumulatedDepreciation: dollars(m.accumulatedDepreciationCents),
            journalEntryId: m.journalEntryId,
          })),
        }
      : {}),
  };
}

interface AssetBody {
  transactionId?: string;
  purchaseDate?: string;
  depreciationStartDate?: string;
  description?: string;
  assetTypeId?: string;
  cost?: number;
  salvageValue?: number;
  usefulLife?: number;
  method?: string;
  totalEstimatedUnits?: number;
  unitProducedPerYear?: number;
}

/** The fixed-asset routes: each one FixedAssetsService RPC with the caller's tenancy headers. */
export async function registerFixedAssetRoutes(app: FastifyInstance, { client }: { client: FixedAssetsClient }): Promise<void> {
  addSchemas(app, [DepreciationRowSchema, FixedAssetSchema, FixedAssetBodySchema, FixedAssetAnswerSchema, FixedAssetListSchema, DeletedAnswerSchema]);
  const headers = (req: FastifyRequest) => ({ headers: authOf(req).rpcHeaders });
  const common = { tags: ['fixed assets'], security: BEARER, headers: WORKSPACE_HEADER_SCHEMA };

  app.get(
    '/accounting/fixed-assets',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'listFixedAssets',
        summary: "The workspace's fixed assets, newest purchase first (without schedules)",
        response: responses(200, ref(FixedAssetListSchema)),
      },
    },
    async (req) => ({ data: (await client.listFixedAssets({}, headers(req))).fixedAssets.map((a) => fixedAssetJson(a, false)) }),
  );

  app.get<{ Params: { id: string } }>(
    '/accounting/fixed-asset/:id',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'getFixedAsset',
        summary: 'One fixed asset with its depreciation schedule',
        params: idParams,
        response: responses(200, ref(FixedAssetSchema)),
      },
    },
    async (req) => fixedAssetJson((await client.getFixedAsset({ id: req.params.id }, headers(req))).fixedAsset, true),
  );

  app.post<{ Body: AssetBody }>(
    '/accounting/fixed-asset',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'createFixedAsset',
        body: ref(FixedAssetBodySchema),
        response: responses(201, ref(FixedAssetAnswerSchema)),
        summary:
          'Create a fixed asset from a bank transaction: the purchase is re-booked to the asset account; the schedule is posted monthly (source FixedAsset)',
      },
    },
    async (req, reply) => {
      const b = req.body ?? {};
      const r = await client.createFixedAsset(
        {
          transactionId: b.transactionId,
          purchaseDate: b.purchaseDate,
          depreciationStartDate: b.depreciationStartDate,
          description: b.description,
          assetTypeId: b.assetTypeId,
          cost: b.cost,
          salvageValue: b.salvageValue,
          usefulLife: b.usefulLife,
          method: b.method,
          totalEstimatedUnits: b.totalEstimatedUnits,
          unitProducedPerYear: b.unitProducedPerYear,
        },
        headers(req),
      );
      reply.code(201);
      return { message: 'Fixed asset created', fixedAsset: fixedAssetJson(r.fixedAsset, true), seq: Number(r.seq) };
    },
  );

  app.post<{ Params: { id: string } }>(
    '/accounting/fixed-asset/stop/:id',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'stopFixedAsset',
        summary: 'Stop a fixed asset: no further depreciation (what is posted stays)',
        params: idParams,
        response: responses(200, ref(FixedAssetAnswerSchema)),
      },
    },
    async (req) => ({
      message: 'Fixed asset stopped',
      fixedAsset: fixedAssetJson((await client.stopFixedAsset({ id: req.params.id }, headers(req))).fixedAsset, true),
    }),
  );

  app.delete<{ Params: { id: string } }>(
    '/accounting/fixed-asset/:id',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'deleteFixedAsset',
        params: idParams,
        response: responses(200, ref(DeletedAnswerSchema)),
        summary: 'Delete a fixed asset: every depreciation posted is reversed and the purchase booked back to the category it had',
      },
    },
    async (req) => ({
      message: 'Fixed asset deleted',
      id: req.params.id,
      seq: Number((await client.deleteFixedAsset({ id: req.params.id }, headers(req))).seq),
    }),
  );
}
