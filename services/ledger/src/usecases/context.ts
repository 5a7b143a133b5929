import { AppError, ErrorKind, hasRoleAtLeast, VIEWER_EDIT_MESSAGE, withTenant, type Knex, type Logger, type TenantContext } from '@ledgerline/platform';
import { ensureChart } from '../store/chart-store.js';

export interface LedgerDeps {
  db: Knex;
  logger: Logger;
}

export type Tenant = TenantContext & { workspaceId: string };

/** A read or write in the caller's workspace; the default chart exists before `fn` runs. */
export function inWorkspace<T>(db: Knex, tenant: Tenant, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return withTenant(db, tenant, async (trx) => {
    await ensureChart(trx, tenant.workspaceId);
    return fn(trx);
  });
}

/** Services check the role again (ARCHITECTURE §4): a Viewer never writes. */
export function assertCanEdit(tenant: Tenant): void {
  if (!tenant.role || !hasRoleAtLeast(tenant.role, 'Admin')) throw new AppError(ErrorKind.PermissionDenied, VIEWER_EDIT_MESSAGE, { appErrorCode: 'FORBIDDEN' });
}
