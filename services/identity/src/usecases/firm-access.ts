import { AppError, type Knex } from '@ledgerline/platform';
import { firmAccessProblems, normalizeFirmAccess, type FirmAccessState } from '../domain/firm-access.js';
import { actAs, firmGrants, users } from '../store/identity-store.js';
import { writeMemberEvents } from '../store/member-events.js';

export interface FirmAccessInput {
  firmId: string;
  userId: string;
  version: bigint;
  organizations: readonly { organizationId: string; role: string }[];
}

/**
 * Firm access (docs/decisions/0008-firm-access.md): applies one firm member's complete set of client
 * organizations as the firm decided it. Full state with a version: applying it again, or after a newer one,
 * changes nothing, so the gateway's call and the firm's event can both arrive, in any order, any number of
 * times. The user's next ResolveSession reads the grants (no cache), on every gateway replica.
 */
export class FirmAccessUseCases {
  constructor(private readonly deps: { db: Knex; now: () => Date }) {}

  /** Checks a state like user input (a bad one is refused, or dead-lettered when it came by event). */
  check(input: FirmAccessInput): FirmAccessState {
    const problems = firmAccessProblems(input);
    if (problems.length > 0) throw AppError.invalid(problems);
    return normalizeFirmAccess(input);
  }

  /** SetFirmAccess: one transaction. */
  async set(input: FirmAccessInput): Promise<{ applied: boolean; version: bigint }> {
    const state = this.check(input);
    return this.deps.db.transaction((trx) => this.apply(trx, state));
  }

  /** In the caller's transaction (the consumer's, beside its inbox row). */
  async apply(trx: Knex.Transaction, state: FirmAccessState): Promise<{ applied: boolean; version: bigint }> {
    // The grants are the member's rows (row-level security by user, like their memberships).
    await actAs(trx, state.userId);
    if (!(await firmGrants.claimVersion(trx, state.firmId, state.userId, state.version, this.deps.now()))) {
      return { applied: false, version: await firmGrants.versionOf(trx, state.firmId, state.userId) };
    }
    // Organizations identity does not have, and a user it does not have, give nothing (the version is kept).
    const user = await users.byId(trx, state.userId);
    const known = await firmGrants.knownOrganizations(
      trx,
      state.organizations.map((o) => o.organizationId),
    );
    const grants = user ? state.organizations.filter((o) => known.has(o.organizationId)) : [];
    const before = new Map((await firmGrants.ofMember(trx, state.firmId, state.userId)).map((g) => [g.organizationId, g.role]));
    await firmGrants.replace(trx, state.firmId, state.userId, state.version, grants, this.deps.now());
    // The workspaces of the organizations opened, closed or given another role: member.changed for each (decision 0036).
    const after = new Map(grants.map((g) => [g.organizationId, g.role]));
    const changed = [...new Set([...before.keys(), ...after.keys()])].filter((o) => before.get(o) !== after.get(o));
    if (user) await writeMemberEvents(trx, state.userId, await firmGrants.workspacesOf(trx, changed));
    return { applied: true, version: state.version };
  }
}
