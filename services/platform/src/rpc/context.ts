import { createContextKey, type HandlerContext } from '@connectrpc/connect';
import { isRole } from '../roles.js';
import type { TenantContext } from '../db/tenancy.js';
import { isUuid } from '../ids.js';
import { AppError, ErrorKind } from '../errors.js';

/** Headers the gateway sets on every RPC; services trust them only from inside the cluster network. */
export const TENANT_HEADERS = {
  workspaceId: 'x-ll-workspace-id',
  userId: 'x-ll-user-id',
  role: 'x-ll-role',
} as const;

export const tenantKey = createContextKey<TenantContext>({}, { description: 'tenancy context of the call' });

export function tenantFromHeaders(get: (name: string) => string | undefined): TenantContext {
  const workspaceId = get(TENANT_HEADERS.workspaceId);
  const userId = get(TENANT_HEADERS.userId);
  const role = get(TENANT_HEADERS.role);
  return {
    workspaceId: workspaceId && isUuid(workspaceId) ? workspaceId : undefined,
    userId: userId && isUuid(userId) ? userId : undefined,
    role: isRole(role) ? role : undefined,
  };
}

export function tenantHeaders(ctx: TenantContext): Record<string, string> {
  const h: Record<string, string> = {};
  if (ctx.workspaceId) h[TENANT_HEADERS.workspaceId] = ctx.workspaceId;
  if (ctx.userId) h[TENANT_HEADERS.userId] = ctx.userId;
  if (ctx.role) h[TENANT_HEADERS.role] = ctx.role;
  return h;
}

/** The tenant of a call that must name a workspace (every tenant-data RPC). */
export function requireTenant(ctx: HandlerContext): Required<Pick<TenantContext, 'workspaceId'>> & TenantContext {
  const tenant = ctx.values.get(tenantKey);
  if (!tenant.workspaceId)
    throw new AppError(ErrorKind.InvalidInput, 'A workspace is required', { fields: [{ field: 'x-workspace-id', message: 'A workspace is required' }] });
  return { ...tenant, workspaceId: tenant.workspaceId };
}
