import { AppError, ErrorKind, EventType, isAdminRole, isRole, isUuid, newId, writeEvent, type Knex, type OutgoingEvent, type Role } from '@ledgerline/platform';
import { INVITE_TTL_MS, MSG, OWN, TEAM } from '../domain/messages.js';
import { userLimitProblem } from '../domain/plan-limit.js';
import { hashPassword, newSecretToken, tokenHash, verifyAgainstDummy, verifyPassword } from '../domain/secrets.js';
import { collect, normalizeEmail, rules, type Rule } from '../domain/validation.js';
import { templates } from '../mail/mailer.js';
import { actAs, firmGrants, tenancy, users } from '../store/identity-store.js';
import { writeInviteAcceptedEvents, writeMemberEvents } from '../store/member-events.js';
import { workspacePlans } from '../store/plans-store.js';
import type { MembershipRow, UserRow } from '../store/rows.js';
import {
  actInOrganization,
  invites,
  members,
  organizations,
  workspaces,
  type InviteRow,
  type OrganizationRow,
  type OrgMembershipRow,
  type WorkspaceDetails,
  type WorkspaceRow,
} from '../store/teams-store.js';
import { SOURCE, type IdentityUseCases } from './identity.js';
import type { UserView } from './views.js';

/** Roles an invite or a member update may give (spec §6: Owner cannot be assigned). */
type AssignableRole = Exclude<Role, 'Owner'>;

export interface WorkspaceDetailView {
  id: string;
  name: string;
  address: string;
  email: string;
  bankName: string;
  accountNumber: string;
  bankAddress: string;
  accountType: string;
  maxTeamSize: number;
  memberCount: number;
  ownerEmail: string;
  isDefault: boolean;
  organizationId: string;
  role: string;
}

export interface OrganizationView {
  id: string;
  name: string;
  owner: { id: string; email: string; firstName: string; middleName: string; lastName: string };
  memberCount: number;
  isDefault: boolean;
  type: string;
  workspaces: WorkspaceDetailView[];
}

export interface MemberView {
  id: string;
  firstName: string;
  middleName: string;
  lastName: string;
  email: string;
  role: string;
  status: 'pending' | 'verified' | 'revoked';
  joinedOn: string;
  type: 'user' | 'invite';
  organizationCount: number;
  organizations: { id: string; name: string; organizationJoinDate: string }[];
  entities: { id: string; name: string; organizationId: string; userRole: string }[];
}

export interface InviteView {
  id: string;
  createdOn: string;
  updatedOn: string;
  vendorUserId: string;
  email: string;
  status: 'pending' | 'verified' | 'revoked';
  role: string;
  firstName: string;
  middleName: string;
  lastName: string;
  expiryDate: string;
  isExpired: boolean;
  workspaceIds: string[];
  invitedByEmail: string;
}

export interface WorkspaceInput {
  id?: string;
  name?: string;
  address?: string;
  email?: string;
  bankName?: string;
  accountNumber?: string;
  bankAddress?: string;
  accountType?: string;
  maxTeamSize?: number;
  isDefault?: boolean;
}

export interface InviteInput {
  email?: string;
  role?: string;
  workspaceIds?: string[];
  firstName?: string;
  middleName?: string;
  lastName?: string;
}

export type VerifyInviteResult =
  | { status: 'password-required'; message: string; email: string; firstName: string; middleName: string; lastName: string }
  | { status: 'accepted'; message: string; email: string; firstName: string; middleName: string; lastName: string; user?: UserView; sessionToken?: string };

/** What a firm invite's new user gets (createInvitedUser). */
export interface InvitedUserResult {
  status: 'password-required' | 'created' | 'sign-in-required';
  message: string;
  user?: UserView;
  sessionToken?: string;
}

const SIGN_IN_REQUIRED: InvitedUserResult = { status: 'sign-in-required', message: OWN.inviteSignInRequired };

/** The caller of a team call: their user, the organization of the current workspace and their role there. */
interface Caller {
  user: UserRow;
  current: MembershipRow;
  memberships: MembershipRow[];
  org: OrganizationRow;
}

const iso = (d: Date) => d.toISOString();
const notFound = (message: string, field?: string) => new AppError(ErrorKind.NotFound, message, { fields: field ? [{ field, message }] : [] });
const forbidden = (message: string) => new AppError(ErrorKind.PermissionDenied, message, { appErrorCode: 'FORBIDDEN' });

/** Spec §6: a Viewer edits nothing; team management takes the admin check (Owner or Admin). */
function requireManager(role: Role): void {
  if (role === 'Viewer') throw forbidden(MSG.viewerCannotEdit);
  if (!isAdminRole(role)) throw forbidden(TEAM.manageOnly);
}

/** Management ranking (spec §6): Owner > Admin > Accountant > Viewer. */
const MANAGE_RANK: Record<Role, number> = { Owner: 4, Admin: 3, Accountant: 2, Viewer: 1 };

const optionalText =
  (value: string | undefined, field: string, max: number): Rule =>
  () =>
    value !== undefined && value.trim().length > max ? { field, message: TEAM.textTooLong(field, max) } : undefined;

const assignableRole =
  (value: string | undefined, field = 'role', required = false): Rule =>
  () => {
    if (value === undefined || value === '') return required ? { field, message: TEAM.roleRequired } : undefined;
    if (value === 'Owner') return { field, message: MSG.roleCannotBeOwner };
    if (!isRole(value)) return { field, message: TEAM.roleInvalid };
    return undefined;
  };

const uuidList =
  (values: readonly string[] | undefined, field: string): Rule =>
  () => {
    const bad = (values ?? []).findIndex((v) => !isUuid(v));
    return bad >= 0 ? { field: `${field}.${bad}`, message: `${field} ${OWN.invalidId}` } : undefined;
  };

/**
 * Workspaces, organization, members and invites (issue #16 items 1–3). Each call runs in one transaction;
 * the caller's role is read from the memberships table in that transaction, never from a cache.
 */
export class TeamUseCases {
  constructor(
    private readonly identity: IdentityUseCases,
    private readonly deps: { db: Knex; webUrl: string },
  ) {}

  /** The caller and the organization of their current (header) workspace, else of their default one. */
  private async caller(trx: Knex.Transaction, token: string, workspaceId: string | undefined): Promise<Caller> {
    const { user } = await this.identity.requireUser(trx, token);
    await actAs(trx, user.id);
    const memberships = await tenancy.membershipsOf(trx, user.id);
    const current = workspaceId ? memberships.find((m) => m.workspace_id === workspaceId) : memberships[0];
    if (!current) throw notFound(TEAM.workspaceNotFound);
    const org = await organizations.byId(trx, current.organization_id);
    if (!org) throw notFound(TEAM.workspaceNotFound);
    await actInOrganization(trx, org.id);
    return { user, current, memberships, org };
  }

  /** The caller's role in a workspace of the current organization; 404 naming `field` when they have none there. */
  private roleIn(caller: Caller, workspaceId: string, field: string): Role {
    const m = caller.memberships.find((x) => x.workspace_id === workspaceId && x.organization_id === caller.org.id);
    if (!m) throw notFound(TEAM.workspaceNotFound, field);
    return m.role;
  }

  private async emit(trx: Knex.Transaction, userId: string, event: OutgoingEvent): Promise<void> {
    // The outbox row belongs to the event's workspace (row-level security).
    await actAs(trx, userId, event.workspaceId);
    await writeEvent(trx, SOURCE, event);
    await actAs(trx, userId);
  }

  private async workspaceViews(trx: Knex.Transaction, caller: Caller, onlyVisible = true): Promise<WorkspaceDetailView[]> {
    // One after another: a transaction is one connection.
    const rows = await workspaces.ofOrganization(trx, caller.org.id);
    const memberships = await members.ofOrganization(trx, caller.org.id);
    const owner = await users.byId(trx, caller.org.owner_user_id);
    const mine = new Map(caller.memberships.map((m) => [m.workspace_id, m.role]));
    return rows
      .filter((w) => !onlyVisible || mine.has(w.id))
      .map((w) => workspaceDetail(w, memberships.filter((m) => m.workspace_id === w.id).length, owner?.email ?? '', mine.get(w.id) ?? ''));
  }

  async listWorkspaces(token: string, workspaceId?: string): Promise<WorkspaceDetailView[]> {
    return this.deps.db.transaction(async (trx) => this.workspaceViews(trx, await this.caller(trx, token, workspaceId)));
  }

  async createWorkspace(token: string, input: { name?: string }, workspaceId?: string): Promise<{ workspace: WorkspaceDetailView; message: string }> {
    collect(rules.required(input.name, 'name', TEAM.workspaceNameRequired));
    return this.deps.db.transaction(async (trx) => {
      const caller = await this.caller(trx, token, workspaceId);
      requireManager(caller.current.role);
      await workspaces.lockOrganization(trx, caller.org.id);
      const id = newId();
      const name = (input.name ?? '').trim();
      const now = this.identity.now();
      await workspaces.insert(trx, { id, organization_id: caller.org.id, name, is_default: false, created_at: now });
      // The organization's owner keeps access to every workspace; an Admin who creates one is its Admin. An Admin
      // through a firm's grant already reaches it by that grant, and must not keep it once the firm's access goes.
      await members.upsert(trx, { workspace_id: id, user_id: caller.org.owner_user_id, role: 'Owner', created_at: now });
      if (caller.user.id !== caller.org.owner_user_id && !caller.current.firm_id)
        await members.upsert(trx, { workspace_id: id, user_id: caller.user.id, role: caller.current.role, created_at: now });
      // Every other service learns of it here: the ledger seeds its chart of accounts on this event.
      await this.emit(trx, caller.user.id, {
        type: EventType.WorkspaceCreated,
        workspaceId: id,
        payload: { workspaceId: id, organizationId: caller.org.id, name, ownerUserId: caller.org.owner_user_id, isDefault: false },
      });
      // Its members: the owner, its creator, and the firm members the organization is open to (their grant covers it).
      for (const userId of new Set([caller.org.owner_user_id, caller.user.id, ...(await firmGrants.holdersOf(trx, caller.org.id))]))
        await writeMemberEvents(trx, userId, [id]);
      const refreshed = await this.caller(trx, token, id);
      const workspace = (await this.workspaceViews(trx, refreshed)).find((w) => w.id === id);
      if (!workspace) throw new Error('the new workspace is not visible to its creator');
      return { workspace, message: TEAM.workspaceCreated };
    });
  }

  async updateWorkspace(token: string, input: WorkspaceInput, workspaceId?: string): Promise<{ workspace: WorkspaceDetailView; message: string }> {
    collect(() => (input.id !== undefined && !isUuid(input.id) ? { field: 'id', message: `id ${OWN.invalidId}` } : undefined));
    // The fields are checked once the workspace is known: another organization's id is a 404 whatever else the body holds.
    const checkFields = () =>
      collect(
        rules.optionalName(input.name, 'name', TEAM.workspaceNameRequired),
        optionalText(input.address, 'address', 500),
        () => (input.email !== undefined && input.email.trim() !== '' ? rules.email(input.email)() : undefined),
        optionalText(input.bankName, 'bankName', 100),
        () =>
          input.accountNumber !== undefined && input.accountNumber.trim() !== '' && !/^[A-Za-z0-9 -]{4,34}$/.test(input.accountNumber.trim())
            ? { field: 'accountNumber', message: TEAM.accountNumberInvalid }
            : undefined,
        optionalText(input.bankAddress, 'bankAddress', 500),
        optionalText(input.accountType, 'accountType', 50),
        () => (input.maxTeamSize !== undefined ? rules.teamSize(input.maxTeamSize)() : undefined),
      );
    return this.deps.db.transaction(async (trx) => {
      const caller = await this.caller(trx, token, workspaceId);
      const targetId = input.id ?? caller.current.workspace_id;
      const role = this.roleIn(caller, targetId, 'id');
      checkFields();
      requireManager(role);
      const patch: WorkspaceDetails = {};
      if (input.name !== undefined) patch.name = input.name.trim();
      if (input.address !== undefined) patch.address = input.address.trim();
      if (input.email !== undefined) patch.email = normalizeEmail(input.email);
      if (input.bankName !== undefined) patch.bank_name = input.bankName.trim();
      if (input.accountNumber !== undefined) patch.account_number = input.accountNumber.trim();
      if (input.bankAddress !== undefined) patch.bank_address = input.bankAddress.trim();
      if (input.accountType !== undefined) patch.account_type = input.accountType.trim();
      if (input.maxTeamSize !== undefined) patch.max_team_size = input.maxTeamSize;
      await workspaces.lockOrganization(trx, caller.org.id);
      await workspaces.update(trx, targetId, patch);
      if (input.isDefault === true) await workspaces.makeDefault(trx, caller.org.id, targetId);
      const workspace = (await this.workspaceViews(trx, caller)).find((w) => w.id === targetId);
      if (!workspace) throw notFound(TEAM.workspaceNotFound, 'id');
      return { workspace, message: TEAM.workspaceUpdated };
    });
  }

  /**
   * Deletes a workspace of the caller's organization (its owner only). The last one stays. A deleted
   * default passes the default to the oldest remaining workspace. The answer names the workspace a client
   * that had the deleted one selected selects now: the default, else the first remaining.
   */
  async deleteWorkspace(
    token: string,
    id: string,
    workspaceId?: string,
  ): Promise<{ message: string; selectedWorkspaceId: string; workspaces: WorkspaceDetailView[] }> {
    collect(rules.uuid(id, 'id', `id ${OWN.invalidId}`));
    return this.deps.db.transaction(async (trx) => {
      const caller = await this.caller(trx, token, workspaceId);
      const role = this.roleIn(caller, id, 'id');
      if (role === 'Viewer') throw forbidden(MSG.viewerCannotEdit);
      if (caller.org.owner_user_id !== caller.user.id) throw forbidden(TEAM.ownerOnlyDelete);
      await workspaces.lockOrganization(trx, caller.org.id);
      const all = await workspaces.ofOrganization(trx, caller.org.id);
      const target = all.find((w) => w.id === id);
      if (!target) throw notFound(TEAM.workspaceNotFound, 'id');
      const remaining = all.filter((w) => w.id !== id);
      if (remaining.length === 0)
        throw new AppError(ErrorKind.FailedPrecondition, TEAM.lastWorkspace, {
          appErrorCode: 'LAST_WORKSPACE',
          fields: [{ field: 'id', message: TEAM.lastWorkspace }],
        });
      const affected = new Set([
        ...(await members.ofOrganization(trx, caller.org.id)).filter((m) => m.workspace_id === id).map((m) => m.user_id),
        ...(await firmGrants.holdersOf(trx, caller.org.id)),
      ]);
      await workspaces.delete(trx, id);
      await invites.dropWorkspace(trx, caller.org.id, id);
      if (target.is_default) await workspaces.makeDefault(trx, caller.org.id, remaining[0]!.id);
      await this.emit(trx, caller.user.id, {
        type: EventType.WorkspaceDeleted,
        workspaceId: id,
        payload: { workspaceId: id, organizationId: caller.org.id, deletedByUserId: caller.user.id },
      });
      // Nobody reaches it any more: each one's event says removed.
      for (const userId of affected) await writeMemberEvents(trx, userId, [id]);
      const after = await this.caller(trx, token, undefined);
      const views = await this.workspaceViews(trx, after);
      const selected =
        workspaceId && workspaceId !== id && views.some((w) => w.id === workspaceId) ? workspaceId : ((views.find((w) => w.isDefault) ?? views[0])?.id ?? '');
      return { message: TEAM.workspaceDeleted, selectedWorkspaceId: selected, workspaces: views };
    });
  }

  /**
   * A new organization owned by the caller with its first, default workspace (as sign-up makes one); the
   * ledger seeds its chart on workspace.created. The firm service keeps it as a client organization.
   */
  async createOrganization(token: string, input: { name?: string }): Promise<{ organizationId: string; workspaceId: string; name: string }> {
    collect(rules.required(input.name, 'name', TEAM.organizationNameRequired));
    const name = (input.name ?? '').trim();
    return this.deps.db.transaction(async (trx) => {
      const { user } = await this.identity.requireUser(trx, token);
      const organizationId = newId();
      const workspaceId = newId();
      await actAs(trx, user.id, workspaceId);
      await tenancy.createOrganization(trx, { organizationId, workspaceId, ownerUserId: user.id, name, type: 'business' });
      await writeEvent(trx, SOURCE, {
        type: EventType.WorkspaceCreated,
        workspaceId,
        payload: { workspaceId, organizationId, name, ownerUserId: user.id, isDefault: true },
      });
      await writeMemberEvents(trx, user.id, [workspaceId]);
      return { organizationId, workspaceId, name };
    });
  }

  async organization(token: string, workspaceId?: string): Promise<OrganizationView> {
    return this.deps.db.transaction(async (trx) => {
      const caller = await this.caller(trx, token, workspaceId);
      const owner = await users.byId(trx, caller.org.owner_user_id);
      const memberships = await members.ofOrganization(trx, caller.org.id);
      return {
        id: caller.org.id,
        name: caller.org.name,
        owner: {
          id: owner?.id ?? '',
          email: owner?.email ?? '',
          firstName: owner?.first_name ?? '',
          middleName: owner?.middle_name ?? '',
          lastName: owner?.last_name ?? '',
        },
        memberCount: new Set(memberships.map((m) => m.user_id)).size,
        // The organization of the caller's default workspace (their first membership, default first).
        isDefault: caller.memberships[0]?.organization_id === caller.org.id,
        type: caller.org.type,
        workspaces: await this.workspaceViews(trx, caller),
      };
    });
  }

  private async memberViews(trx: Knex.Transaction, caller: Caller): Promise<MemberView[]> {
    const rows = await members.ofOrganization(trx, caller.org.id);
    const all = await workspaces.ofOrganization(trx, caller.org.id);
    const pending = await invites.ofOrganization(trx, caller.org.id);
    const names = new Map(all.map((w) => [w.id, w.name]));
    const byUser = new Map<string, OrgMembershipRow[]>();
    for (const r of rows) byUser.set(r.user_id, [...(byUser.get(r.user_id) ?? []), r]);
    const orgsOf = await members.organizationsOf(trx, [...byUser.keys()]);
    const out: MemberView[] = [];
    for (const [userId, ms] of byUser) {
      const first = ms[0]!;
      const here = ms.find((m) => m.workspace_id === caller.current.workspace_id) ?? first;
      const orgs = orgsOf.filter((o) => o.user_id === userId);
      out.push({
        id: userId,
        firstName: first.first_name,
        middleName: first.middle_name,
        lastName: first.last_name,
        email: first.email,
        role: here.role,
        status: 'verified',
        joinedOn: iso(first.created_at),
        type: 'user',
        organizationCount: orgs.length,
        organizations: orgs.map((o) => ({ id: o.id, name: o.name, organizationJoinDate: iso(new Date(o.joined)) })),
        entities: ms.map((m) => ({ id: m.workspace_id, name: names.get(m.workspace_id) ?? '', organizationId: caller.org.id, userRole: m.role })),
      });
    }
    for (const i of pending.filter((x) => x.status === 'pending')) {
      out.push({
        id: i.id,
        firstName: i.first_name,
        middleName: i.middle_name,
        lastName: i.last_name,
        email: i.email,
        role: i.role,
        status: 'pending',
        joinedOn: iso(i.created_at),
        type: 'invite',
        organizationCount: 0,
        organizations: [],
        entities: i.workspace_ids
          .filter((w) => names.has(w))
          .map((w) => ({ id: w, name: names.get(w) ?? '', organizationId: caller.org.id, userRole: i.role })),
      });
    }
    return out;
  }

  /** The organization's team: users with access (type user) and open invites (type invite). */
  async listMembers(token: string, type: string, workspaceId?: string): Promise<MemberView[]> {
    collect(() => (type && type !== 'user' && type !== 'invite' ? { field: 'type', message: 'type must be one of: user, invite' } : undefined));
    return this.deps.db.transaction(async (trx) => {
      const all = await this.memberViews(trx, await this.caller(trx, token, workspaceId));
      return type ? all.filter((m) => m.type === type) : all;
    });
  }

  /** Sets a member's role in one workspace of the organization (giving them access there if they had none). */
  async updateMember(
    token: string,
    id: string,
    input: { role?: string; workspaceId?: string },
    workspaceId?: string,
  ): Promise<{ member: MemberView; message: string }> {
    collect(rules.uuid(id, 'id', `id ${OWN.invalidId}`), () =>
      input.workspaceId !== undefined && !isUuid(input.workspaceId) ? { field: 'workspaceId', message: `workspaceId ${OWN.invalidId}` } : undefined,
    );
    return this.deps.db.transaction(async (trx) => {
      const caller = await this.caller(trx, token, workspaceId);
      // References first (another organization's ids are a 404 whatever else the body holds), then the fields, then the roles.
      const targetWorkspace = input.workspaceId ?? caller.current.workspace_id;
      const callerRole = this.roleIn(caller, targetWorkspace, 'workspaceId');
      const rows = (await members.ofOrganization(trx, caller.org.id)).filter((m) => m.user_id === id);
      if (rows.length === 0) throw notFound(TEAM.memberNotFound, 'id');
      collect(assignableRole(input.role, 'role', true));
      requireManager(caller.current.role);
      requireManager(callerRole);
      if (id === caller.org.owner_user_id) throw forbidden(TEAM.ownerRoleFixed);
      if (id === caller.user.id) throw forbidden(TEAM.ownRole);
      const role = input.role as AssignableRole;
      // Nobody gives or changes a role above their own (management ranking).
      const existing = rows.find((m) => m.workspace_id === targetWorkspace);
      if (MANAGE_RANK[role] > MANAGE_RANK[callerRole] || (existing && MANAGE_RANK[existing.role] > MANAGE_RANK[callerRole])) throw forbidden(TEAM.manageOnly);
      await members.upsert(trx, { workspace_id: targetWorkspace, user_id: id, role, created_at: this.identity.now() });
      await writeMemberEvents(trx, id, [targetWorkspace]);
      const member = (await this.memberViews(trx, caller)).find((m) => m.id === id && m.type === 'user');
      if (!member) throw notFound(TEAM.memberNotFound, 'id');
      return { member, message: TEAM.memberUpdated };
    });
  }

  /** Removes a member from every workspace of the organization: their next request there is refused. */
  async removeMember(token: string, id: string, workspaceId?: string): Promise<{ message: string }> {
    collect(rules.uuid(id, 'id', `id ${OWN.invalidId}`));
    return this.deps.db.transaction(async (trx) => {
      const caller = await this.caller(trx, token, workspaceId);
      requireManager(caller.current.role);
      const rows = (await members.ofOrganization(trx, caller.org.id)).filter((m) => m.user_id === id);
      if (rows.length === 0) throw notFound(TEAM.memberNotFound, 'id');
      if (id === caller.org.owner_user_id) throw forbidden(TEAM.ownerCannotBeRemoved);
      if (id === caller.user.id) throw forbidden(TEAM.removeSelf);
      if (rows.some((m) => MANAGE_RANK[m.role] > MANAGE_RANK[caller.current.role])) throw forbidden(TEAM.manageOnly);
      await members.removeFrom(
        trx,
        id,
        rows.map((m) => m.workspace_id),
      );
      // Removed, unless a firm's grant of the organization still opens a workspace to them (the event says which).
      await writeMemberEvents(
        trx,
        id,
        rows.map((m) => m.workspace_id),
      );
      return { message: TEAM.memberRemoved };
    });
  }

  async listInvites(token: string, workspaceId?: string): Promise<InviteView[]> {
    return this.deps.db.transaction(async (trx) => {
      const caller = await this.caller(trx, token, workspaceId);
      return this.inviteViews(trx, await invites.ofOrganization(trx, caller.org.id));
    });
  }

  private async inviteViews(trx: Knex.Transaction, rows: InviteRow[]): Promise<InviteView[]> {
    const inviters = new Map<string, string>();
    for (const id of new Set(rows.map((r) => r.invited_by_user_id).filter((x): x is string => x !== null)))
      inviters.set(id, (await users.byId(trx, id))?.email ?? '');
    const now = this.identity.now();
    return rows.map((r) => ({
      id: r.id,
      createdOn: iso(r.created_at),
      updatedOn: iso(r.updated_at),
      vendorUserId: r.accepted_user_id ?? '',
      email: r.email,
      status: r.status,
      role: r.role,
      firstName: r.first_name,
      middleName: r.middle_name,
      lastName: r.last_name,
      expiryDate: iso(r.expires_at),
      isExpired: r.status === 'pending' && r.expires_at <= now,
      workspaceIds: r.workspace_ids,
      invitedByEmail: r.invited_by_user_id ? (inviters.get(r.invited_by_user_id) ?? '') : '',
    }));
  }

  /** The workspaces an invite names: each a workspace of the organization the caller manages (404 naming the field otherwise). */
  private inviteWorkspaces(caller: Caller, ids: readonly string[] | undefined): string[] {
    const list = ids && ids.length > 0 ? [...new Set(ids)] : [caller.current.workspace_id];
    const roles = list.map((w) => {
      const m = caller.memberships.find((x) => x.workspace_id === w && x.organization_id === caller.org.id);
      if (!m) throw notFound(TEAM.workspaceNotFound, 'workspaceIds');
      return m.role;
    });
    roles.forEach(requireManager);
    return list;
  }

  private inviteMail(caller: Caller, invite: { email: string; role: string; expires_at: Date }, token: string) {
    const link = new URL('/verify-invite', this.deps.webUrl);
    link.searchParams.set('token', token);
    const inviterName = [caller.user.first_name, caller.user.last_name].filter(Boolean).join(' ');
    return templates.invite(invite.email, {
      organizationName: caller.org.name,
      inviterName,
      role: invite.role,
      link: link.toString(),
      expiresOn: invite.expires_at.toISOString().slice(0, 10),
    });
  }

  async sendInvite(token: string, input: InviteInput, workspaceId?: string): Promise<{ invite: InviteView; message: string }> {
    collect(uuidList(input.workspaceIds, 'workspaceIds'));
    const email = normalizeEmail(input.email);
    const role = (input.role || 'Viewer') as AssignableRole;
    return this.identity.transact(async (trx, mail) => {
      const caller = await this.caller(trx, token, workspaceId);
      // References first: another organization's workspace is a 404 whatever else the body holds.
      const workspaceIds = this.inviteWorkspaces(caller, input.workspaceIds);
      collect(
        rules.email(input.email),
        assignableRole(input.role),
        optionalText(input.firstName, 'firstName', 100),
        optionalText(input.middleName, 'middleName', 100),
        optionalText(input.lastName, 'lastName', 100),
      );
      requireManager(caller.current.role);
      // Nobody invites above their own management rank.
      if (MANAGE_RANK[role] > MANAGE_RANK[caller.current.role]) throw forbidden(TEAM.manageOnly);
      const existing = await users.byEmail(trx, email);
      if (existing) {
        const has = new Set((await members.ofOrganization(trx, caller.org.id)).filter((m) => m.user_id === existing.id).map((m) => m.workspace_id));
        if (workspaceIds.every((w) => has.has(w)))
          throw new AppError(ErrorKind.Conflict, TEAM.alreadyMember, {
            appErrorCode: 'ALREADY_MEMBER',
            fields: [{ field: 'email', message: TEAM.alreadyMember }],
          });
      }
      await this.assertPlansAllow(trx, caller.org.id, workspaceIds, email);
      // Sending again to an address with an open invite replaces it (the old link stops working).
      const open = await invites.pendingFor(trx, caller.org.id, email);
      if (open) await invites.update(trx, open.id, { status: 'revoked', updated_at: this.identity.now() });
      const secret = newSecretToken();
      const now = this.identity.now();
      const row = {
        id: newId(),
        organization_id: caller.org.id,
        email,
        role,
        workspace_ids: workspaceIds,
        token_hash: tokenHash(secret),
        first_name: (input.firstName ?? '').trim(),
        middle_name: (input.middleName ?? '').trim(),
        last_name: (input.lastName ?? '').trim(),
        invited_by_user_id: caller.user.id,
        expires_at: new Date(now.getTime() + INVITE_TTL_MS),
        created_at: now,
      };
      await invites.insert(trx, row);
      await mail(this.inviteMail(caller, row, secret));
      const saved = await invites.byId(trx, caller.org.id, row.id);
      return { invite: (await this.inviteViews(trx, saved ? [saved] : []))[0]!, message: TEAM.inviteSent };
    });
  }

  /**
   * Refuses an invite that would take a workspace past its plan's users (identity's copy of billing's limits,
   * decision 0044): its members and the people with an open invite to it, the invitee counted once. A workspace
   * billing has said nothing of is not limited.
   */
  private async assertPlansAllow(trx: Knex.Transaction, organizationId: string, workspaceIds: readonly string[], email: string): Promise<void> {
    const plans = await workspacePlans.limiting(trx, workspaceIds);
    if (plans.length === 0) return;
    const now = this.identity.now();
    const orgMembers = await members.ofOrganization(trx, organizationId);
    const open = (await invites.ofOrganization(trx, organizationId)).filter((i) => i.status === 'pending' && i.expires_at > now);
    for (const plan of plans) {
      const people = new Set(orgMembers.filter((m) => m.workspace_id === plan.workspace_id).map((m) => normalizeEmail(m.email)));
      for (const invite of open) if (invite.workspace_ids.includes(plan.workspace_id)) people.add(invite.email);
      people.add(email);
      const problem = userLimitProblem({ name: plan.plan_name, users: plan.users }, people.size);
      if (problem)
        throw new AppError(ErrorKind.FailedPrecondition, problem, { appErrorCode: 'PLAN_LIMIT_REACHED', fields: [{ field: 'email', message: problem }] });
    }
  }

  async revokeInvite(token: string, id: string | undefined, workspaceId?: string): Promise<{ invite: InviteView; message: string }> {
    collect(rules.uuid(id, 'id', `id ${OWN.invalidId}`));
    return this.deps.db.transaction(async (trx) => {
      const caller = await this.caller(trx, token, workspaceId);
      requireManager(caller.current.role);
      const invite = await invites.byId(trx, caller.org.id, id ?? '');
      if (!invite) throw notFound(TEAM.inviteNotFound, 'id');
      if (invite.status !== 'pending')
        throw new AppError(ErrorKind.FailedPrecondition, TEAM.inviteNotPending, {
          appErrorCode: 'INVITE_NOT_PENDING',
          fields: [{ field: 'id', message: TEAM.inviteNotPending }],
        });
      await invites.update(trx, invite.id, { status: 'revoked', updated_at: this.identity.now() });
      const saved = await invites.byId(trx, caller.org.id, invite.id);
      return { invite: (await this.inviteViews(trx, saved ? [saved] : []))[0]!, message: TEAM.inviteRevoked };
    });
  }

  /** Changes an open invite (role, workspaces, names); `resend` mails a new link valid for another 7 days. */
  async updateInvite(
    token: string,
    id: string,
    input: InviteInput & { resend?: boolean },
    workspaceId?: string,
  ): Promise<{ invite: InviteView; message: string }> {
    collect(rules.uuid(id, 'id', `id ${OWN.invalidId}`), uuidList(input.workspaceIds, 'workspaceIds'));
    return this.identity.transact(async (trx, mail) => {
      const caller = await this.caller(trx, token, workspaceId);
      // References first (404), then the fields, then the roles.
      const invite = await invites.byId(trx, caller.org.id, id);
      if (!invite) throw notFound(TEAM.inviteNotFound, 'id');
      const newWorkspaces = input.workspaceIds && input.workspaceIds.length > 0 ? this.inviteWorkspaces(caller, input.workspaceIds) : undefined;
      collect(
        assignableRole(input.role),
        optionalText(input.firstName, 'firstName', 100),
        optionalText(input.middleName, 'middleName', 100),
        optionalText(input.lastName, 'lastName', 100),
      );
      requireManager(caller.current.role);
      if (invite.status !== 'pending')
        throw new AppError(ErrorKind.FailedPrecondition, TEAM.inviteNotPending, {
          appErrorCode: 'INVITE_NOT_PENDING',
          fields: [{ field: 'id', message: TEAM.inviteNotPending }],
        });
      const role = (input.role || invite.role) as AssignableRole;
      if (MANAGE_RANK[role] > MANAGE_RANK[caller.current.role]) throw forbidden(TEAM.manageOnly);
      const now = this.identity.now();
      const patch: Partial<InviteRow> = { role, updated_at: now };
      if (newWorkspaces) patch.workspace_ids = newWorkspaces;
      if (input.firstName !== undefined) patch.first_name = input.firstName.trim();
      if (input.middleName !== undefined) patch.middle_name = input.middleName.trim();
      if (input.lastName !== undefined) patch.last_name = input.lastName.trim();
      let message: string = TEAM.inviteUpdated;
      if (input.resend) {
        const secret = newSecretToken();
        patch.token_hash = tokenHash(secret);
        patch.expires_at = new Date(now.getTime() + INVITE_TTL_MS);
        await mail(this.inviteMail(caller, { email: invite.email, role, expires_at: patch.expires_at }, secret));
        message = TEAM.inviteResent;
      }
      await invites.update(trx, invite.id, patch);
      const saved = await invites.byId(trx, caller.org.id, invite.id);
      return { invite: (await this.inviteViews(trx, saved ? [saved] : []))[0]!, message };
    });
  }

  /**
   * The invite link. A valid token (pending, not expired) of an existing account adds its workspaces at
   * once; for a new address the answer asks for a password first (nothing changes), then the account is
   * made, verified by the link, and signed in. A used, revoked or expired token is refused alike.
   */
  async verifyInvite(input: { token?: string; password?: string; confirmPassword?: string }): Promise<VerifyInviteResult> {
    collect(rules.present(input.token, 'token', TEAM.inviteTokenRequired));
    const invalid = () =>
      new AppError(ErrorKind.InvalidInput, TEAM.inviteInvalid, { appErrorCode: 'INVITE_INVALID', fields: [{ field: 'token', message: TEAM.inviteInvalid }] });
    const settingPassword = input.password !== undefined && input.password !== '';
    if (settingPassword) collect(rules.newPassword(input.password), rules.confirm(input.password, input.confirmPassword));
    // A token that cannot work is refused before the (deliberately slow) password hash is computed.
    const usable = (row: InviteRow | undefined): row is InviteRow => row !== undefined && row.status === 'pending' && row.expires_at > this.identity.now();
    if (!usable(await invites.peekByTokenHash(this.deps.db, tokenHash(input.token ?? '')))) throw invalid();
    const passwordHash = settingPassword ? await hashPassword(input.password ?? '') : undefined;
    return this.identity.transact(async (trx) => {
      const invite = await invites.byTokenHash(trx, tokenHash(input.token ?? ''));
      if (!usable(invite)) throw invalid();
      const names = { email: invite.email, firstName: invite.first_name, middleName: invite.middle_name, lastName: invite.last_name };
      let user = await users.byEmail(trx, invite.email);
      const isNew = !user;
      if (!user) {
        if (!passwordHash) return { status: 'password-required', message: TEAM.invitePasswordRequired, ...names };
        const id = newId();
        // The link proved the address; the organization they join is their company, so no onboarding.
        await users.insert(trx, {
          id,
          email: invite.email,
          first_name: invite.first_name,
          middle_name: invite.middle_name,
          last_name: invite.last_name,
          password_hash: passwordHash,
          is_verified: true,
          user_type: 'business',
          profile: null,
        });
        await users.update(trx, id, { is_onboarded: true, last_code_verified_at: this.identity.now() });
        user = await users.byId(trx, id);
        if (!user) throw invalid();
      }
      const now = this.identity.now();
      const live = new Set((await workspaces.ofOrganization(trx, invite.organization_id)).map((w) => w.id));
      await actAs(trx, user.id);
      const joined: string[] = [];
      for (const w of invite.workspace_ids.filter((x) => live.has(x))) {
        // Access the member already has stays as it is (an invite never lowers a role).
        if (await members.addIfMissing(trx, { workspace_id: w, user_id: user.id, role: invite.role, created_at: now })) joined.push(w);
      }
      await writeMemberEvents(trx, user.id, joined);
      await invites.update(trx, invite.id, { status: 'verified', accepted_user_id: user.id, updated_at: now });
      // The inviter is told, once per workspace joined (decision 0040).
      const userName = [user.first_name, user.last_name].filter((n) => n && n.trim() !== '').join(' ');
      await writeInviteAcceptedEvents(trx, joined, {
        inviteId: invite.id,
        invitedByUserId: invite.invited_by_user_id ?? '',
        userId: user.id,
        userName,
        email: user.email,
        role: invite.role,
      });
      if (!isNew) return { status: 'accepted', message: TEAM.inviteAccepted, ...names };
      const session = await this.identity.startSession(trx, user.id, 'active');
      return { status: 'accepted', message: MSG.passwordSet, ...names, user: await this.identity.view(trx, user), sessionToken: session.token };
    });
  }

  /**
   * A firm invite's new user (the firm service keeps firm invites; the gateway checked the token and passes the
   * invite's id, email and names). Without a password: password-required, nothing changes. With one: the user is
   * made (userType firm, verified by the link, onboarded: they join an existing company) and signed in; the
   * gateway then has the firm accept the invite for them, and ends this session if the firm refuses.
   * The same invite and password again (a retry after a crash between the two services, or two clicks at once)
   * signs in the user it made; an address with any other account must sign in and accept as itself.
   */
  async createInvitedUser(input: {
    inviteId: string;
    email: string;
    firstName: string;
    middleName: string;
    lastName: string;
    firmName: string;
    password?: string;
    confirmPassword?: string;
  }): Promise<InvitedUserResult> {
    const settingPassword = input.password !== undefined && input.password !== '';
    if (settingPassword) collect(rules.newPassword(input.password), rules.confirm(input.password, input.confirmPassword));
    const email = normalizeEmail(input.email);
    collect(rules.email(email), rules.uuid(input.inviteId, 'inviteId', TEAM.inviteTokenRequired));
    const existing = await users.byEmail(this.deps.db, email);
    if (!settingPassword) return existing ? SIGN_IN_REQUIRED : { status: 'password-required', message: TEAM.invitePasswordRequired };
    if (existing) return this.retrySignIn(existing, input.inviteId, input.password!);
    const passwordHash = await hashPassword(input.password!);
    const id = newId();
    const created = await this.identity.transact(async (trx) => {
      try {
        await users.insert(trx, {
          id,
          email,
          first_name: input.firstName.trim(),
          middle_name: input.middleName.trim(),
          last_name: input.lastName.trim(),
          password_hash: passwordHash,
          is_verified: true,
          user_type: 'firm',
          profile: { companyName: input.firmName.trim(), firmInviteId: input.inviteId },
        });
      } catch (err) {
        // Two acceptances at once: the unique email let one user in; the other signs in as it below.
        if ((err as { code?: string }).code === '23505') return undefined;
        throw err;
      }
      await users.update(trx, id, { is_onboarded: true, last_code_verified_at: this.identity.now() });
      const user = (await users.byId(trx, id))!;
      const session = await this.identity.startSession(trx, id, 'active');
      return { status: 'created' as const, message: MSG.passwordSet, user: await this.identity.view(trx, user), sessionToken: session.token };
    });
    if (created) return created;
    const winner = await users.byEmail(this.deps.db, email);
    return winner ? this.retrySignIn(winner, input.inviteId, input.password!) : SIGN_IN_REQUIRED;
  }

  /** The user an earlier acceptance of this invite made, signed in again with the password it set; anyone else must sign in. */
  private async retrySignIn(user: UserRow, inviteId: string, password: string): Promise<InvitedUserResult> {
    const sameInvite = user.user_type === 'firm' && user.profile?.firmInviteId === inviteId && user.password_hash !== null;
    // The password is checked (or a dummy of equal cost) either way, so the answer's timing says nothing more.
    const ok = sameInvite ? await verifyPassword(user.password_hash!, password) : (await verifyAgainstDummy(password), false);
    if (!ok) return SIGN_IN_REQUIRED;
    return this.deps.db.transaction(async (trx) => {
      const session = await this.identity.startSession(trx, user.id, 'active');
      return { status: 'created' as const, message: MSG.passwordSet, user: await this.identity.view(trx, user), sessionToken: session.token };
    });
  }
}

function workspaceDetail(w: WorkspaceRow, memberCount: number, ownerEmail: string, role: string): WorkspaceDetailView {
  return {
    id: w.id,
    name: w.name,
    address: w.address,
    email: w.email,
    bankName: w.bank_name,
    accountNumber: w.account_number,
    bankAddress: w.bank_address,
    accountType: w.account_type,
    maxTeamSize: w.max_team_size ?? 0,
    memberCount,
    ownerEmail,
    isDefault: w.is_default,
    organizationId: w.organization_id,
    role,
  };
}
