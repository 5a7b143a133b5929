import { AppError, ErrorKind, mailOutboxStore, newId, type FieldError, type Knex } from '@ledgerline/platform';
import {
  ACCESS_CHANGES,
  canManage,
  effectiveAccess,
  emailProblem,
  FIRM,
  INVITE_TTL_MS,
  MANAGE_RANK,
  newSecretToken,
  normalizeEmail,
  optionalText,
  requiredText,
  roleProblem,
  tokenHash,
  uuidListProblem,
  uuidProblem,
  type AccessChange,
  type InvitableRole,
} from '../domain/firm.js';
import { firmInviteMail } from '../mail/mailer.js';
import {
  access,
  accessStates,
  actInFirm,
  firms,
  invites,
  members,
  organizations,
  withEveryFirm,
  withFirmCaller,
  type AccessRow,
  type AccessStateRow,
  type FirmRow,
  type InviteRow,
  type MemberRow,
  type OrganizationRow,
} from '../store/firm-store.js';

export interface FirmDeps {
  db: Knex;
  webUrl: string;
  now?: () => Date;
  /** Called after a transaction that wrote mail committed (wakes the mail outbox job). */
  mailWritten?: () => void;
}

/** Who calls: the user id from the service token, and their profile as identity has it (for names and emails). */
export interface Caller {
  userId: string;
  email?: string;
  firstName?: string;
  middleName?: string;
  lastName?: string;
}

export interface FirmView {
  id: string;
  name: string;
  country: string;
  ownerUserId: string;
  createdOn: string;
}
export interface MemberView {
  id: string;
  firstName: string;
  middleName: string;
  lastName: string;
  email: string;
  role: string;
  status: 'verified';
  joinedOn: string;
  type: 'user';
  organizationCount: number;
  organizations: { id: string; name: string; organizationJoinDate: string }[];
  defaultOrganizationId: string;
}
export interface InviteView {
  id: string;
  createdOn: string;
  updatedOn: string;
  vendorUserId: string;
  vendorEmailId: string;
  email: string;
  status: InviteRow['status'];
  role: string;
  firstName: string;
  middleName: string;
  lastName: string;
  expiryDate: string;
  isExpired: boolean;
  organizationIds: string[];
}
export interface OrganizationView {
  id: string;
  name: string;
  memberCount: number;
  isDefault: boolean;
  addedOn: string;
}
/** One member's complete access after a change (docs/decisions/0008-firm-access.md): published and answered. */
export type AccessState = AccessStateRow;

/** The service's name on the events it writes. */
export const SOURCE = 'firm';

const iso = (d: Date) => d.toISOString();
const check = (...problems: (FieldError | undefined)[]) => {
  const fields = problems.filter((p): p is FieldError => p !== undefined);
  if (fields.length > 0) throw AppError.invalid(fields);
};
const notFound = (message: string, field: string) => new AppError(ErrorKind.NotFound, message, { fields: [{ field, message }] });
const forbidden = (message: string) => new AppError(ErrorKind.PermissionDenied, message, { appErrorCode: 'FORBIDDEN' });
const failed = (message: string, field: string, code: string) =>
  new AppError(ErrorKind.FailedPrecondition, message, { appErrorCode: code, fields: [{ field, message }] });

/** The caller's membership, or 404 when they belong to no firm. */
function inFirm(member: MemberRow | undefined): MemberRow {
  if (!member) throw new AppError(ErrorKind.NotFound, FIRM.noFirm, { appErrorCode: 'NO_FIRM' });
  return member;
}
function manager(member: MemberRow | undefined): MemberRow {
  const m = inFirm(member);
  if (!canManage(m.role)) throw forbidden(FIRM.manageOnly);
  return m;
}

/**
 * Firms, members, invites, client organizations and member access (issue #16 item 4). Every call runs in
 * one transaction that reads the caller's membership first (no cache), so a removed member's or a
 * stripped accountant's next call already sees the change.
 */
export function createUseCases({ db, webUrl, now: clock, mailWritten }: FirmDeps) {
  const now = () => clock?.() ?? new Date();

  const firmView = (f: FirmRow): FirmView => ({ id: f.id, name: f.name, country: f.country, ownerUserId: f.owner_user_id, createdOn: iso(f.created_at) });

  /** What each member may open: owner and admin every organization of the firm, an accountant those given to them. */
  async function memberViews(trx: Knex.Transaction, firmId: string): Promise<MemberView[]> {
    const rows = await members.ofFirm(trx, firmId);
    const orgs = await organizations.ofFirm(trx, firmId);
    const grants = await access.ofFirm(trx, firmId);
    return rows.map((m) => {
      const opened: { id: string; name: string; organizationJoinDate: string }[] = canManage(m.role)
        ? orgs.map((o) => ({ id: o.organization_id, name: o.name, organizationJoinDate: iso(o.added_at) }))
        : grants
            .filter((g) => g.user_id === m.user_id)
            .flatMap((g) => {
              const o = orgs.find((x) => x.organization_id === g.organization_id);
              return o ? [{ id: o.organization_id, name: o.name, organizationJoinDate: iso(g.granted_at) }] : [];
            });
      return {
        id: m.user_id,
        firstName: m.first_name,
        middleName: m.middle_name,
        lastName: m.last_name,
        email: m.email,
        role: m.role,
        status: 'verified',
        joinedOn: iso(m.joined_at),
        type: 'user',
        organizationCount: opened.length,
        organizations: opened,
        defaultOrganizationId: m.default_organization_id ?? '',
      };
    });
  }

  async function memberView(trx: Knex.Transaction, firmId: string, userId: string): Promise<MemberView> {
    const view = (await memberViews(trx, firmId)).find((m) => m.id === userId);
    if (!view) throw notFound(FIRM.memberNotFound, 'id');
    return view;
  }

  function inviteView(r: InviteRow): InviteView {
    return {
      id: r.id,
      createdOn: iso(r.created_at),
      updatedOn: iso(r.updated_at),
      vendorUserId: r.accepted_user_id ?? '',
      vendorEmailId: r.email,
      email: r.email,
      status: r.status,
      role: r.role,
      firstName: r.first_name,
      middleName: r.middle_name,
      lastName: r.last_name,
      expiryDate: iso(r.expires_at),
      isExpired: r.status === 'pending' && r.expires_at <= now(),
      organizationIds: r.organization_ids,
    };
  }

  async function organizationViews(trx: Knex.Transaction, caller: MemberRow): Promise<OrganizationView[]> {
    const views = await memberViews(trx, caller.firm_id);
    const mine = views.find((m) => m.id === caller.user_id);
    const orgs = await organizations.ofFirm(trx, caller.firm_id);
    const visible = new Set(mine?.organizations.map((o) => o.id) ?? []);
    return orgs
      .filter((o) => visible.has(o.organization_id))
      .map((o) => ({
        id: o.organization_id,
        name: o.name,
        memberCount: views.filter((v) => v.organizations.some((x) => x.id === o.organization_id)).length,
        isDefault: caller.default_organization_id === o.organization_id,
        addedOn: iso(o.added_at),
      }));
  }

  /** The firm's organizations named in a body: each must be one the firm keeps (404 naming the field otherwise). */
  async function firmOrganizations(trx: Knex.Transaction, firmId: string, ids: readonly string[], field: string): Promise<OrganizationRow[]> {
    const kept = await organizations.ofFirm(trx, firmId);
    return [...new Set(ids)].map((id) => {
      const o = kept.find((k) => k.organization_id === id);
      if (!o) throw notFound(FIRM.organizationNotFound, field);
      return o;
    });
  }

  /** A member of the caller's firm that the caller may manage (not the owner, not themself, not above their rank). */
  async function manageableMember(trx: Knex.Transaction, caller: MemberRow, id: string): Promise<MemberRow> {
    const target = await members.byUser(trx, caller.firm_id, id);
    if (!target) throw notFound(FIRM.memberNotFound, 'id');
    if (target.role === 'owner') throw forbidden(FIRM.ownerFixed);
    if (target.user_id === caller.user_id) throw forbidden(FIRM.ownMembership);
    if (MANAGE_RANK[target.role] > MANAGE_RANK[caller.role]) throw forbidden(FIRM.manageOnly);
    return target;
  }

  /** A new firm owned by the caller (they become its owner member); the caller belongs to no firm. */
  async function createOwnedFirm(trx: Knex.Transaction, caller: Caller, firmName: string, country: string): Promise<FirmRow> {
    const at = now();
    const id = newId();
    await actInFirm(trx, id);
    await firms.insert(trx, { id, name: firmName.trim(), country: country.trim(), owner_user_id: caller.userId, created_at: at, updated_at: at });
    await members.insert(trx, {
      firm_id: id,
      user_id: caller.userId,
      role: 'owner',
      email: normalizeEmail(caller.email),
      first_name: caller.firstName ?? '',
      middle_name: caller.middleName ?? '',
      last_name: caller.lastName ?? '',
      default_organization_id: null,
      joined_at: at,
    });
    return (await firms.byId(trx, id))!;
  }

  /**
   * The complete access of each user now (a removed member's is empty), each with the next version, written
   * to the outbox as firm.access_changed in this transaction and answered for the gateway to hand to identity.
   * Runs under the firm's access lock, so versions follow commit order.
   */
  async function publishAccess(trx: Knex.Transaction, firmId: string, userIds: readonly string[]): Promise<AccessState[]> {
    await firms.lockAccess(trx, firmId);
    const kept = (await organizations.ofFirm(trx, firmId)).map((o) => o.organization_id);
    const grants = await access.ofFirm(trx, firmId);
    const states: AccessState[] = [];
    for (const userId of [...new Set(userIds)]) {
      const member = await members.byUser(trx, firmId, userId);
      const given = grants.filter((g) => g.user_id === userId).map((g) => g.organization_id);
      states.push({ firmId, userId, version: await accessStates.nextVersion(trx), organizations: effectiveAccess(member?.role, kept, given) });
    }
    await accessStates.publish(trx, SOURCE, states);
    return states;
  }
  const invalidInvite = () =>
    new AppError(ErrorKind.InvalidInput, FIRM.inviteInvalid, { appErrorCode: 'INVITE_INVALID', fields: [{ field: 'token', message: FIRM.inviteInvalid }] });

  return {
    /** Creates the caller's firm (they become its owner) or changes its name and country (owner or admin). */
    async updateFirm(caller: Caller, input: { firmName?: string; country?: string }): Promise<{ firm: FirmView; created: boolean; message: string }> {
      return withFirmCaller(db, caller.userId, async (trx, member) => {
        if (!member) {
          check(requiredText(input.firmName, 'firmName', FIRM.firmNameRequired, 200), requiredText(input.country, 'country', FIRM.countryRequired, 100));
          return { firm: firmView(await createOwnedFirm(trx, caller, input.firmName!, input.country!)), created: true, message: FIRM.firmCreated };
        }
        check(
          input.firmName !== undefined ? requiredText(input.firmName, 'firmName', FIRM.firmNameRequired, 200) : undefined,
          input.country !== undefined ? requiredText(input.country, 'country', FIRM.countryRequired, 100) : undefined,
        );
        const m = manager(member);
        const patch: Partial<FirmRow> = { updated_at: now() };
        if (input.firmName !== undefined) patch.name = input.firmName.trim();
        if (input.country !== undefined) patch.country = input.country.trim();
        await firms.update(trx, m.firm_id, patch);
        return { firm: firmView((await firms.byId(trx, m.firm_id))!), created: false, message: FIRM.firmUpdated };
      });
    },

    async me(caller: Caller): Promise<{ firm: FirmView; owner: MemberView; me: MemberView }> {
      return withFirmCaller(db, caller.userId, async (trx, member) => {
        const m = inFirm(member);
        const firm = (await firms.byId(trx, m.firm_id))!;
        const views = await memberViews(trx, m.firm_id);
        return { firm: firmView(firm), owner: views.find((v) => v.id === firm.owner_user_id)!, me: views.find((v) => v.id === m.user_id)! };
      });
    },

    async listMembers(caller: Caller): Promise<{ members: MemberView[]; invites: InviteView[] }> {
      return withFirmCaller(db, caller.userId, async (trx, member) => {
        const m = inFirm(member);
        const views = await memberViews(trx, m.firm_id);
        // Open invites are the managers' business; an accountant sees the team only.
        const open = canManage(m.role) ? (await invites.ofFirm(trx, m.firm_id)).map(inviteView) : [];
        return { members: views, invites: open };
      });
    },

    async getMember(caller: Caller, id: string): Promise<MemberView> {
      check(uuidProblem(id, 'id'));
      return withFirmCaller(db, caller.userId, async (trx, member) => memberView(trx, inFirm(member).firm_id, id));
    },

    async updateMember(caller: Caller, id: string, input: { role?: string }): Promise<{ member: MemberView; message: string; access: AccessState[] }> {
      check(uuidProblem(id, 'id'));
      return withFirmCaller(db, caller.userId, async (trx, member) => {
        const m = manager(member);
        const target = await manageableMember(trx, m, id);
        check(roleProblem(input.role, true));
        const role = input.role!.toLowerCase() as InvitableRole;
        if (MANAGE_RANK[role] > MANAGE_RANK[m.role]) throw forbidden(FIRM.manageOnly);
        await firms.lockAccess(trx, m.firm_id);
        await members.update(trx, m.firm_id, target.user_id, { role });
        const states = await publishAccess(trx, m.firm_id, [target.user_id]);
        return { member: await memberView(trx, m.firm_id, target.user_id), message: FIRM.memberUpdated, access: states };
      });
    },

    /** Removes a member from the firm with all their access: their next call is refused. */
    async removeMember(caller: Caller, id: string): Promise<{ message: string; access: AccessState[] }> {
      check(uuidProblem(id, 'id'));
      return withFirmCaller(db, caller.userId, async (trx, member) => {
        const m = manager(member);
        const target = await manageableMember(trx, m, id);
        await firms.lockAccess(trx, m.firm_id);
        await members.remove(trx, m.firm_id, target.user_id);
        return { message: FIRM.memberRemoved, access: await publishAccess(trx, m.firm_id, [target.user_id]) };
      });
    },

    async changeAccess(
      caller: Caller,
      id: string,
      input: { type?: string; organizationIds: readonly string[] },
    ): Promise<{ member: MemberView; message: string; access: AccessState[] }> {
      check(uuidProblem(id, 'id'), uuidListProblem(input.organizationIds, 'organizationIds', false));
      return withFirmCaller(db, caller.userId, async (trx, member) => {
        const m = manager(member);
        // References first: another firm's member or organization is a 404 whatever else the body holds.
        const target = await members.byUser(trx, m.firm_id, id);
        if (!target) throw notFound(FIRM.memberNotFound, 'id');
        const orgs = await firmOrganizations(trx, m.firm_id, input.organizationIds, 'organizationIds');
        check(
          (ACCESS_CHANGES as readonly string[]).includes(input.type ?? '') ? undefined : { field: 'type', message: FIRM.accessTypeInvalid },
          uuidListProblem(input.organizationIds, 'organizationIds', true),
        );
        if (target.role !== 'accountant') throw failed(FIRM.accessForAccountants, 'id', 'NOT_AN_ACCOUNTANT');
        const ids = orgs.map((o) => o.organization_id);
        await firms.lockAccess(trx, m.firm_id);
        if ((input.type as AccessChange) === 'give-access') {
          const at = now();
          await access.grant(
            trx,
            ids.map((organization_id): AccessRow => ({ firm_id: m.firm_id, user_id: target.user_id, organization_id, granted_at: at })),
          );
        } else {
          await access.revoke(trx, m.firm_id, target.user_id, ids);
          if (target.default_organization_id && ids.includes(target.default_organization_id))
            await members.update(trx, m.firm_id, target.user_id, { default_organization_id: null });
        }
        const states = await publishAccess(trx, m.firm_id, [target.user_id]);
        return { member: await memberView(trx, m.firm_id, target.user_id), message: FIRM.accessUpdated, access: states };
      });
    },

    async sendInvite(
      caller: Caller,
      input: { email?: string; role?: string; firstName?: string; middleName?: string; lastName?: string; organizationIds: readonly string[] },
    ): Promise<{ invite: InviteView; message: string }> {
      check(uuidListProblem(input.organizationIds, 'organizationIds', false));
      const result = await withFirmCaller(db, caller.userId, async (trx, member) => {
        const m = manager(member);
        const orgs = await firmOrganizations(trx, m.firm_id, input.organizationIds, 'organizationIds');
        check(
          emailProblem(input.email),
          roleProblem(input.role, true),
          optionalText(input.firstName, 'firstName', 100),
          optionalText(input.middleName, 'middleName', 100),
          optionalText(input.lastName, 'lastName', 100),
        );
        const role = input.role!.toLowerCase() as InvitableRole;
        if (MANAGE_RANK[role] > MANAGE_RANK[m.role]) throw forbidden(FIRM.manageOnly);
        const email = normalizeEmail(input.email);
        if ((await members.ofFirm(trx, m.firm_id)).some((x) => x.email === email))
          throw new AppError(ErrorKind.Conflict, FIRM.alreadyMember, {
            appErrorCode: 'ALREADY_MEMBER',
            fields: [{ field: 'email', message: FIRM.alreadyMember }],
          });
        const at = now();
        // Inviting the same address again replaces the open invite: the old link stops working.
        const open = await invites.pendingFor(trx, m.firm_id, email);
        if (open) await invites.update(trx, open.id, { status: 'revoked', updated_at: at });
        const secret = newSecretToken();
        const row = {
          id: newId(),
          firm_id: m.firm_id,
          email,
          role,
          organization_ids: orgs.map((o) => o.organization_id),
          token_hash: tokenHash(secret),
          first_name: (input.firstName ?? '').trim(),
          middle_name: (input.middleName ?? '').trim(),
          last_name: (input.lastName ?? '').trim(),
          invited_by_user_id: m.user_id,
          expires_at: new Date(at.getTime() + INVITE_TTL_MS),
          created_at: at,
          updated_at: at,
        };
        await invites.insert(trx, row);
        const firm = (await firms.byId(trx, m.firm_id))!;
        const link = new URL('/verify-invite', webUrl);
        link.searchParams.set('token', secret);
        link.searchParams.set('kind', 'firm');
        // The mail is a row of the mail outbox in this transaction: sent if and only if the invite commits.
        await mailOutboxStore.add(
          trx,
          firmInviteMail(email, {
            firmName: firm.name,
            inviterName: [m.first_name, m.last_name].filter(Boolean).join(' '),
            role,
            link: link.toString(),
            expiresOn: iso(row.expires_at).slice(0, 10),
          }),
        );
        return { invite: inviteView((await invites.byId(trx, m.firm_id, row.id))!), message: FIRM.inviteSent };
      });
      mailWritten?.();
      return result;
    },

    async getInvite(caller: Caller, id: string): Promise<InviteView> {
      check(uuidProblem(id, 'id'));
      return withFirmCaller(db, caller.userId, async (trx, member) => {
        const m = manager(member);
        const invite = await invites.byId(trx, m.firm_id, id);
        if (!invite) throw notFound(FIRM.inviteNotFound, 'id');
        return inviteView(invite);
      });
    },

    async revokeInvite(caller: Caller, id: string): Promise<{ invite: InviteView; message: string }> {
      check(uuidProblem(id, 'id'));
      return withFirmCaller(db, caller.userId, async (trx, member) => {
        const m = manager(member);
        const invite = await invites.byId(trx, m.firm_id, id);
        if (!invite) throw notFound(FIRM.inviteNotFound, 'id');
        if (invite.status !== 'pending') throw failed(FIRM.inviteNotPending, 'id', 'INVITE_NOT_PENDING');
        await invites.update(trx, id, { status: 'revoked', updated_at: now() });
        return { invite: inviteView((await invites.byId(trx, m.firm_id, id))!), message: FIRM.inviteRevoked };
      });
    },

    /**
     * The invite link: a pending, unexpired token whose invite names the caller's email makes them a member
     * with the invite's role and organizations. Used, revoked, expired and unknown tokens are refused alike.
     */
    async acceptInvite(caller: Caller, input: { token?: string }): Promise<{ firm: FirmView; member: MemberView; message: string; access: AccessState[] }> {
      check((input.token ?? '').trim() === '' ? { field: 'token', message: FIRM.inviteTokenRequired } : undefined);
      return withEveryFirm(db, async (trx) => {
        const invite = await invites.byTokenHash(trx, tokenHash(input.token!));
        if (!invite || invite.status !== 'pending' || invite.expires_at <= now()) throw invalidInvite();
        if (invite.email !== normalizeEmail(caller.email))
          throw new AppError(ErrorKind.PermissionDenied, FIRM.inviteOtherEmail, {
            appErrorCode: 'INVITE_OTHER_EMAIL',
            fields: [{ field: 'token', message: FIRM.inviteOtherEmail }],
          });
        if (await members.anyFirmByUser(trx, caller.userId))
          throw new AppError(ErrorKind.Conflict, FIRM.alreadyMember, {
            appErrorCode: 'ALREADY_MEMBER',
            fields: [{ field: 'token', message: FIRM.alreadyMember }],
          });
        const at = now();
        await firms.lockAccess(trx, invite.firm_id);
        await members.insert(trx, {
          firm_id: invite.firm_id,
          user_id: caller.userId,
          role: invite.role as InvitableRole,
          email: invite.email,
          first_name: caller.firstName || invite.first_name,
          middle_name: caller.middleName || invite.middle_name,
          last_name: caller.lastName || invite.last_name,
          default_organization_id: null,
          joined_at: at,
        });
        // Organizations the firm stopped keeping since the invite was sent are skipped.
        const live = new Set((await organizations.ofFirm(trx, invite.firm_id)).map((o) => o.organization_id));
        await access.grant(
          trx,
          invite.organization_ids
            .filter((o) => live.has(o))
            .map((organization_id) => ({ firm_id: invite.firm_id, user_id: caller.userId, organization_id, granted_at: at })),
        );
        await invites.update(trx, invite.id, { status: 'verified', accepted_user_id: caller.userId, updated_at: at });
        const states = await publishAccess(trx, invite.firm_id, [caller.userId]);
        return {
          firm: firmView((await firms.byId(trx, invite.firm_id))!),
          member: await memberView(trx, invite.firm_id, caller.userId),
          message: FIRM.inviteAccepted,
          access: states,
        };
      });
    },

    async listOrganizations(caller: Caller): Promise<OrganizationView[]> {
      return withFirmCaller(db, caller.userId, async (trx, member) => organizationViews(trx, inFirm(member)));
    },

    /** Keeps a client organization; the gateway has checked the caller manages it in identity and names it. */
    async addOrganization(
      caller: Caller,
      input: { organizationId: string; name: string },
    ): Promise<{ organization: OrganizationView; message: string; access: AccessState[] }> {
      check(uuidProblem(input.organizationId, 'organizationId'));
      return withFirmCaller(db, caller.userId, async (trx, member) => {
        const m = manager(member);
        await firms.lockAccess(trx, m.firm_id);
        if (await organizations.byId(trx, m.firm_id, input.organizationId))
          throw new AppError(ErrorKind.Conflict, FIRM.organizationAlreadyAdded, {
            appErrorCode: 'ALREADY_ADDED',
            fields: [{ field: 'organizationId', message: FIRM.organizationAlreadyAdded }],
          });
        await organizations.insert(trx, {
          firm_id: m.firm_id,
          organization_id: input.organizationId,
          name: input.name,
          added_by_user_id: m.user_id,
          added_at: now(),
        });
        const organization = (await organizationViews(trx, m)).find((o) => o.id === input.organizationId)!;
        // The owner and the admins open every organization of the firm: each of them gains this one.
        const managers = (await members.ofFirm(trx, m.firm_id)).filter((x) => canManage(x.role)).map((x) => x.user_id);
        return { organization, message: FIRM.organizationAdded, access: await publishAccess(trx, m.firm_id, managers) };
      });
    },

    /** Stops keeping an organization: every member's access to it goes (and it stops being anyone's default). */
    async removeOrganization(caller: Caller, id: string): Promise<{ message: string; access: AccessState[] }> {
      check(uuidProblem(id, 'id'));
      return withFirmCaller(db, caller.userId, async (trx, member) => {
        const m = manager(member);
        if (!(await organizations.byId(trx, m.firm_id, id))) throw notFound(FIRM.organizationNotFound, 'id');
        await firms.lockAccess(trx, m.firm_id);
        // Everyone who could open it: the managers, and the accountants it was given to (read before the cascade).
        const everyone = (await members.ofFirm(trx, m.firm_id)).map((x) => x.user_id);
        await members.clearDefault(trx, m.firm_id, id);
        await organizations.remove(trx, m.firm_id, id);
        return { message: FIRM.organizationRemoved, access: await publishAccess(trx, m.firm_id, everyone) };
      });
    },

    async makeDefaultOrganization(caller: Caller, id: string): Promise<{ organization: OrganizationView; message: string }> {
      check(uuidProblem(id, 'id'));
      return withFirmCaller(db, caller.userId, async (trx, member) => {
        const m = inFirm(member);
        // Only an organization the caller may open: another firm's, or one an accountant lost, is a 404.
        if (!(await organizationViews(trx, m)).some((o) => o.id === id)) throw notFound(FIRM.organizationNotFound, 'id');
        await members.update(trx, m.firm_id, m.user_id, { default_organization_id: id });
        const organization = (await organizationViews(trx, { ...m, default_organization_id: id })).find((o) => o.id === id)!;
        return { organization, message: FIRM.defaultOrganizationSet };
      });
    },

    /**
     * The firm of a user who signed up as a firm (issue #16): created with the caller as owner unless the caller
     * already belongs to a firm, in which case nothing changes (a rename made since is kept). Keyed by the
     * owner's user id (one firm per user, `firm_members.user_id` unique), so repeating it — after a crash, at
     * every sign-in — never makes a second firm.
     */
    async ensureFirm(caller: Caller, input: { firmName?: string; country?: string }): Promise<{ firm: FirmView; created: boolean }> {
      check(requiredText(input.firmName, 'firmName', FIRM.firmNameRequired, 200), requiredText(input.country, 'country', FIRM.countryRequired, 100));
      const attempt = () =>
        withFirmCaller(db, caller.userId, async (trx, member) => {
          if (member) return { firm: firmView((await firms.byId(trx, member.firm_id))!), created: false };
          return { firm: firmView(await createOwnedFirm(trx, caller, input.firmName!, input.country!)), created: true };
        });
      try {
        return await attempt();
      } catch (err) {
        // Two ensures at once: the unique user id let one firm in; the other's transaction rolled back whole.
        if ((err as { code?: string }).code === '23505') return attempt();
        throw err;
      }
    },

    /**
     * What the invite link shows before anything changes: the invite's email, names and firm, if the token is
     * pending and unexpired. Used, revoked, expired and unknown tokens are refused alike.
     */
    async peekInvite(input: {
      token?: string;
    }): Promise<{ inviteId: string; email: string; firstName: string; middleName: string; lastName: string; role: string; firmName: string }> {
      check((input.token ?? '').trim() === '' ? { field: 'token', message: FIRM.inviteTokenRequired } : undefined);
      return withEveryFirm(db, async (trx) => {
        const invite = await invites.peekByTokenHash(trx, tokenHash(input.token!));
        if (!invite || invite.status !== 'pending' || invite.expires_at <= now()) throw invalidInvite();
        const firm = (await firms.byId(trx, invite.firm_id))!;
        return {
          inviteId: invite.id,
          email: invite.email,
          firstName: invite.first_name,
          middleName: invite.middle_name,
          lastName: invite.last_name,
          role: invite.role,
          firmName: firm.name,
        };
      });
    },
  };
}

export type FirmUseCases = ReturnType<typeof createUseCases>;
