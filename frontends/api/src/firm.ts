// Accounting firms as the shell meets them (spec documents-parties-integrations §3, §7 "Firm"; platform-core §2, §4,
// §5): the client organizations a firm user may open, adding one, the caller's firm, invite links (workspace and firm)
// and the firm sign-up. The firm's team screens (members, invites, access) are the settings remote's (firm-team.ts).
import type { ApiClient } from './client';
import type { operations } from './gen/schema';
import type { OperationResult, Schemas, SignUpBody } from './types';
import { validateSignUp, type FieldErrors, type SignUpFormValues } from './validation';

export type Firm = Schemas['Firm'];
export type FirmMember = Schemas['FirmMember'];
export type FirmOrganization = Schemas['FirmOrganization'];
export type FirmOrganizationsResponse = OperationResult<'listAccountingFirmOrganizations'>;
export type FirmMeResponse = OperationResult<'getAccountingFirmMe'>;
export type AddFirmOrganizationBody = NonNullable<operations['addAccountingFirmOrganization']['requestBody']>['content']['application/json'];
export type AddFirmOrganizationResponse = OperationResult<'addAccountingFirmOrganization'>;
export type AcceptFirmInviteResponse = OperationResult<'acceptAccountingFirmInvite'>;
/**
 * POST /verify-invite's body, with the link's `kind` (a firm invite is answered by the firm; issue #16 item 4). `kind`
 * is written here until the generated schema names it; a gateway without it drops it.
 */
export type VerifyInviteBody = NonNullable<operations['verifyInvite']['requestBody']>['content']['application/json'] & { kind?: InviteKind };
/**
 * `password-required`: a new address, set a password first; `accepted`: done (with user + sessionToken when it signed
 * a new user in); `sign-in-required` (firm invites to an address that has an account): log in, then accept.
 */
export type VerifyInviteResponse = Omit<OperationResult<'verifyInvite'>, 'status'> & { status: OperationResult<'verifyInvite'>['status'] | 'sign-in-required' };

/** Firm roles that manage the firm (services/firm: owner and admin; an accountant only reads). */
export const FIRM_MANAGER_ROLES: readonly string[] = ['owner', 'admin'];

export const isFirmManager = (member: Pick<FirmMember, 'role'> | null | undefined): boolean =>
  member !== null && member !== undefined && FIRM_MANAGER_ROLES.includes(member.role);

// ── Invite links ─────────────────────────────────────────────────────────────────────────────────────

/** The `kind` a firm invite mail puts on its link (`/verify-invite?token=…&kind=firm`); a workspace invite has none. */
export const FIRM_INVITE_KIND = 'firm';

export type InviteKind = 'workspace' | 'firm';

export interface InviteLink {
  token: string;
  kind: InviteKind;
}

/** The invite of a /verify-invite query string; null when the link carries no token. */
export function inviteFromSearch(search: string | URLSearchParams): InviteLink | null {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const token = (params.get('token') ?? '').trim();
  if (token === '') return null;
  return { token, kind: params.get('kind') === FIRM_INVITE_KIND ? 'firm' : 'workspace' };
}

// ── Client organizations ─────────────────────────────────────────────────────────────────────────────

/** Case-insensitive contains match on the organization's name or one of its workspaces' names (spec §5 search). */
export function filterFirmOrganizations(organizations: readonly FirmOrganization[], search: string): FirmOrganization[] {
  const needle = search.trim().toLowerCase();
  const matching =
    needle === ''
      ? [...organizations]
      : organizations.filter((o) => o.name.toLowerCase().includes(needle) || o.workspaces.some((w) => w.name.toLowerCase().includes(needle)));
  // The firm's default organization first, then by name.
  return matching.sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.name.localeCompare(b.name, 'en-US', { sensitivity: 'base' }));
}

export const ORGANIZATION_NAME_REQUIRED = 'Organization name is required';
export const ORGANIZATION_NAME_MAX = 100;

export function checkOrganizationName(name: string): string | undefined {
  const value = name.trim();
  if (value === '') return ORGANIZATION_NAME_REQUIRED;
  if (value.length > ORGANIZATION_NAME_MAX) return `Organization name must be at most ${ORGANIZATION_NAME_MAX} characters`;
  return undefined;
}

// ── Sign-up as a firm ────────────────────────────────────────────────────────────────────────────────

/** Who signs up (spec §3 User userType): a business, or an accounting firm. */
export type SignUpKind = 'business' | 'firm';

/** The firm's part of a sign-up (documents-parties-integrations §3 "Firm create: firmName, country"): the generated fields, all sent. */
export type FirmSignUpFields = Required<Pick<SignUpBody, 'firmName' | 'country'>> & { userType: 'firm' };

/** The sign-up body of a firm: the gateway's SignUpBody with the firm's fields present. */
export type FirmSignUpBody = SignUpBody & FirmSignUpFields;

export interface FirmSignUpFormValues extends SignUpFormValues {
  firmName: string;
  country: string;
}

export const firmValidationMessages = {
  firmName: 'Firm name is required',
  country: 'Country is required',
} as const;

/**
 * The firm sign-up form: the names, email and password as for a business; the firm's name stands for the company name
 * (the firm is the company), the country is required, the team size optional (checked when given). Messages as the
 * firm service answers them.
 */
export function validateFirmSignUp(v: FirmSignUpFormValues): FieldErrors<keyof FirmSignUpFormValues> {
  const { companyName: _companyName, maxTeamSize, ...rest } = validateSignUp({ ...v, companyName: v.firmName });
  const errors: FieldErrors<keyof FirmSignUpFormValues> = { ...rest };
  if (v.maxTeamSize.trim() !== '' && maxTeamSize) errors.maxTeamSize = maxTeamSize;
  if (v.firmName.trim() === '') errors.firmName = firmValidationMessages.firmName;
  if (v.country.trim() === '') errors.country = firmValidationMessages.country;
  return errors;
}

/** The POST /signup body for a firm: the firm's name is also the company's; no team size when none was given. */
export function firmSignUpBody(v: FirmSignUpFormValues, base: SignUpBody): FirmSignUpBody {
  const firmName = v.firmName.trim();
  const { maxTeamSize: _maxTeamSize, ...rest } = base;
  return {
    ...rest,
    ...(v.maxTeamSize.trim() === '' ? {} : { maxTeamSize: base.maxTeamSize }),
    companyName: firmName,
    userType: 'firm',
    firmName,
    country: v.country.trim(),
  };
}

// ── Calls ────────────────────────────────────────────────────────────────────────────────────────────

export const firmApi = {
  organizations: (client: ApiClient, signal?: AbortSignal) => client.get('/accounting-firm/organizations', { signal }),
  addOrganization: (client: ApiClient, body: AddFirmOrganizationBody) => client.post('/accounting-firm/add-organization', { body }),
  me: (client: ApiClient, signal?: AbortSignal) => client.get('/accounting-firm/me', { signal }),
  acceptInvite: (client: ApiClient, token: string) => client.post('/accounting-firm/accept-invite/', { body: { token } }),
  verifyInvite: (client: ApiClient, body: VerifyInviteBody) => client.post('/verify-invite', { body }),
  /** POST /signup for either kind of account (a business body, or one with the firm's fields). */
  signUp: (client: ApiClient, body: SignUpBody | FirmSignUpBody) => client.post('/signup', { body }),
};
