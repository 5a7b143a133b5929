import { AppError, newId, withTenant, type Knex, type Logger, type TenantContext, assertCanEdit } from '@ledgerline/platform';
import { titleProblem, type RecordView } from '../domain/record.js';
import { recordCreated } from '../events/record-created.js';
import { insertRecord } from '../store/records.js';

export interface BillingDeps {
  db: Knex;
  logger: Logger;
}

export type Tenant = TenantContext & { workspaceId: string };

export function createUseCases({ db }: BillingDeps) {
  return {
    /** Stores a record and writes its event in one transaction: both or neither. */
    async createRecord(tenant: Tenant, input: { title: string }): Promise<RecordView> {
      assertCanEdit(tenant, { callsWithoutRole: 'allow' });
      const problem = titleProblem(input.title);
      if (problem) throw AppError.invalid([{ field: 'title', message: problem }]);
      return withTenant(db, tenant, async (trx) => {
        const record = await insertRecord(trx, { id: newId(), workspaceId: tenant.workspaceId, title: input.title.trim(), createdBy: tenant.userId ?? null });
        await recordCreated(trx, tenant.workspaceId, record);
        return record;
      });
    },
  };
}

export type BillingUseCases = ReturnType<typeof createUseCases>;
