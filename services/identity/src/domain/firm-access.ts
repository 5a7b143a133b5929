// Firm access (docs/decisions/0008-firm-access.md): the shape of one firm member's complete access, checked
// like user input whether it comes by RPC or by event. Pure: no I/O.
import { isUuid, type FieldError } from '@ledgerline/platform';

/** The workspace roles a firm grant gives (firm owner and admin: Admin; accountant: Accountant). */
export const GRANT_ROLES = ['Admin', 'Accountant'] as const;
export type GrantRole = (typeof GRANT_ROLES)[number];

export interface FirmAccessState {
  firmId: string;
  userId: string;
  version: bigint;
  organizations: { organizationId: string; role: GrantRole }[];
}

/** At most this many organizations in one member's state (a firm's client list, with room). */
export const MAX_GRANTS = 10_000;

/** The problems of a state as received (empty when it can be applied). */
export function firmAccessProblems(input: {
  firmId: string;
  userId: string;
  version: bigint;
  organizations: readonly { organizationId: string; role: string }[];
}): FieldError[] {
  const out: FieldError[] = [];
  if (!isUuid(input.firmId)) out.push({ field: 'firmId', message: 'firmId must be a UUID' });
  if (!isUuid(input.userId)) out.push({ field: 'userId', message: 'userId must be a UUID' });
  if (input.version <= 0n) out.push({ field: 'version', message: 'version must be positive' });
  if (input.organizations.length > MAX_GRANTS) out.push({ field: 'organizations', message: `at most ${MAX_GRANTS} organizations` });
  input.organizations.forEach((o, i) => {
    if (!isUuid(o.organizationId)) out.push({ field: `organizations.${i}.organizationId`, message: 'organizationId must be a UUID' });
    if (!(GRANT_ROLES as readonly string[]).includes(o.role)) out.push({ field: `organizations.${i}.role`, message: 'role must be Admin or Accountant' });
  });
  return out;
}

/** The state with lower-cased ids and one entry per organization (the last one named wins). */
export function normalizeFirmAccess(input: {
  firmId: string;
  userId: string;
  version: bigint;
  organizations: readonly { organizationId: string; role: string }[];
}): FirmAccessState {
  const byOrg = new Map<string, GrantRole>();
  for (const o of input.organizations) byOrg.set(o.organizationId.toLowerCase(), o.role as GrantRole);
  return {
    firmId: input.firmId.toLowerCase(),
    userId: input.userId.toLowerCase(),
    version: input.version,
    organizations: [...byOrg].map(([organizationId, role]) => ({ organizationId, role })),
  };
}
