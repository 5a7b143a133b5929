import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authOf, WRITE, READ } from '../../http/auth.js';
import { addSchemas } from '../../http/hardening.js';
import { BEARER, idParams, ref, responses, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import type { FixedAssetsClient } from '../client.js';
import {
  type AssetBody,
  DeletedAnswerSchema,
  DepreciationRowSchema,
  FixedAssetAnswerSchema,
  FixedAssetCreatedSchema,
  FixedAssetBodySchema,
  FixedAssetListSchema,
  FixedAssetSchema,
} from '../schemas.js';
import { fixedAssetJson } from '../present.js';

/** The fixed-asset routes: each one FixedAssetsService RPC with the caller's tenancy headers. */
export async function registerFixedAssetRoutes(app: FastifyInstance, { client }: { client: FixedAssetsClient }): Promise<void> {
  addSchemas(app, [
    DepreciationRowSchema,
    FixedAssetSchema,
    FixedAssetBodySchema,
    FixedAssetAnswerSchema,
    FixedAssetCreatedSchema,
    FixedAssetListSchema,
    DeletedAnswerSchema,
  ]);
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
        response: responses(201, ref(FixedAssetCreatedSchema)),
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
