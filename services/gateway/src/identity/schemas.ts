import { ROLES } from '@ledgerline/platform';
import { bool, int32, MessageResponseSchema } from '../http/schemas.js';

/**
 * Identity's REST shapes (sign-up, sign-in, codes, passwords, onboarding, the user), as JSON Schema; the team
 * routes keep theirs beside them (routes/teams.ts). Request bodies check types and shape only (src/http/schemas.ts):
 * identity owns the business rules and answers with the spec's messages.
 */
const str = (maxLength: number, description?: string) =>
  description ? ({ type: 'string', maxLength, description } as const) : ({ type: 'string', maxLength } as const);

const NAME = 100;
const EMAIL = 254;
const PASSWORD = 256;
const TOKEN = 1024;
/** Third-party sign-in tokens are JWTs; some run to a few kilobytes. */
const OAUTH_TOKEN = 8192;

export const REFERRAL_SOURCES = [
  'Google',
  'YC',
  'Product Hunt',
  'Social Media',
  'Friends',
  'Accel',
  'Goodwater Capital',
  'Frontier Ventures',
  'Global Brains',
  'Accounting Firm',
  'Other',
] as const;

// ----- answers -----

export const WorkspaceSchema = {
  $id: 'Workspace',
  type: 'object',
  description: 'A workspace the user is a member of, with their role in it.',
  properties: {
    id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    organizationId: { type: 'string', format: 'uuid' },
    organizationName: { type: 'string' },
    role: { type: 'string', enum: ROLES },
    isDefault: { type: 'boolean' },
  },
  required: ['id', 'name', 'organizationId', 'organizationName', 'role', 'isDefault'],
  additionalProperties: false,
} as const;

export const OnboardingProfileSchema = {
  $id: 'OnboardingProfile',
  type: 'object',
  description: 'What the user told us at sign-up and onboarding. Before onboarding, the fields not asked at sign-up are empty strings.',
  properties: {
    maxTeamSize: { type: 'integer' },
    companyName: { type: 'string' },
    role: { type: 'string' },
    phoneNumber: { type: 'string' },
    city: { type: 'string' },
    country: { type: 'string' },
    heardAboutUs: { type: 'string', description: `One of: ${REFERRAL_SOURCES.join(', ')}; empty before onboarding.` },
    firmName: {
      type: 'string',
      description: "A firm user's firm (userType firm): the name they signed up with; their company name. Empty for business users.",
    },
  },
  required: ['maxTeamSize', 'companyName', 'role', 'phoneNumber', 'city', 'country', 'heardAboutUs', 'firmName'],
  additionalProperties: false,
} as const;

export const UserSchema = {
  $id: 'User',
  type: 'object',
  description: 'The signed-in user; `workspace` and `role` are those of the current (or default) workspace.',
  properties: {
    id: { type: 'string', format: 'uuid' },
    firstName: { type: 'string' },
    middleName: { type: 'string' },
    lastName: { type: 'string' },
    email: { type: 'string', format: 'email' },
    isVerified: { type: 'boolean' },
    userType: { type: 'string', enum: ['business', 'firm'] },
    role: { type: 'string', enum: ROLES },
    workspace: { anyOf: [{ $ref: 'Workspace#' }, { type: 'null' }] },
    supportHash: { type: 'string' },
    isOnboarded: { type: 'boolean' },
    workspaces: { type: 'array', items: { $ref: 'Workspace#' } },
    hasPassword: { type: 'boolean' },
    profile: { anyOf: [{ $ref: 'OnboardingProfile#' }, { type: 'null' }] },
  },
  required: [
    'id',
    'firstName',
    'middleName',
    'lastName',
    'email',
    'isVerified',
    'userType',
    'role',
    'workspace',
    'supportHash',
    'isOnboarded',
    'workspaces',
    'hasPassword',
    'profile',
  ],
  additionalProperties: false,
} as const;

export const SignUpResponseSchema = {
  $id: 'SignUpResponse',
  type: 'object',
  description: 'The account exists; a one-time code was emailed. Check it with /authenticate-otp.',
  properties: { sessionToken: { type: 'string' }, methodId: { type: 'string' }, message: { type: 'string' } },
  required: ['sessionToken', 'methodId', 'message'],
  additionalProperties: false,
} as const;

export const LoginSignedInSchema = {
  $id: 'LoginSignedIn',
  type: 'object',
  description: 'Signed in (a trusted device, or a workspace that asks for no code).',
  properties: { user: { $ref: 'User#' }, sessionToken: { type: 'string' } },
  required: ['user', 'sessionToken'],
  additionalProperties: false,
} as const;

export const LoginCodeSentSchema = {
  $id: 'LoginCodeSent',
  type: 'object',
  description: 'A one-time code was emailed; check it with /authenticate-otp (sessionToken and methodId).',
  properties: { sessionToken: { type: 'string' }, methodId: { type: 'string' }, message: { type: 'string' } },
  required: ['sessionToken', 'methodId', 'message'],
  additionalProperties: false,
} as const;

export const LoginResponseSchema = {
  $id: 'LoginResponse',
  description: 'Either signed in (user + sessionToken) or a one-time code was sent (sessionToken + methodId + message).',
  oneOf: [{ $ref: 'LoginSignedIn#' }, { $ref: 'LoginCodeSent#' }],
} as const;

export const SessionResponseSchema = {
  $id: 'SessionResponse',
  type: 'object',
  description: 'Signed in.',
  properties: {
    user: { $ref: 'User#' },
    sessionToken: { type: 'string' },
    deviceToken: {
      type: 'string',
      description: 'After a code check: the token of this now trusted device; send it with the next /login to skip the code for 30 days.',
    },
  },
  required: ['user', 'sessionToken'],
  additionalProperties: false,
} as const;

export const ResendOtpResponseSchema = {
  $id: 'ResendOtpResponse',
  type: 'object',
  description: 'A new code was sent.',
  properties: { methodId: { type: 'string' }, message: { type: 'string' } },
  required: ['methodId', 'message'],
  additionalProperties: false,
} as const;

export const OauthResponseSchema = {
  $id: 'OauthResponse',
  type: 'object',
  description: 'Signed in with a third-party token; `userCreated` when the account was made now.',
  properties: { user: { $ref: 'User#' }, sessionToken: { type: 'string' }, userCreated: { type: 'boolean' } },
  required: ['user', 'sessionToken', 'userCreated'],
  additionalProperties: false,
} as const;

export const ResetPasswordResponseSchema = {
  $id: 'ResetPasswordResponse',
  type: 'object',
  description: 'The password was reset and the user is signed in; every other session was ended.',
  properties: { user: { $ref: 'User#' }, sessionToken: { type: 'string' }, message: { type: 'string' } },
  required: ['user', 'sessionToken', 'message'],
  additionalProperties: false,
} as const;

// ----- request bodies (types and shape only; see src/http/schemas.ts) -----

export const SignUpBodySchema = {
  $id: 'SignUpBody',
  type: 'object',
  properties: {
    firstName: str(NAME),
    middleName: str(NAME),
    lastName: str(NAME),
    companyName: str(200),
    maxTeamSize: int32,
    email: str(EMAIL),
    password: str(PASSWORD),
    userType: {
      type: 'string',
      enum: ['business', 'firm'],
      description: 'business (default) or firm. A firm sign-up needs firmName and country; its company name is the firm name and maxTeamSize is optional.',
    },
    firmName: str(200),
    country: str(100),
  },
  additionalProperties: false,
} as const;

export const LoginBodySchema = {
  $id: 'LoginBody',
  type: 'object',
  properties: { email: str(EMAIL), password: str(PASSWORD), deviceToken: str(64, 'The deviceToken of an earlier /authenticate-otp answer in this browser.') },
  additionalProperties: false,
} as const;

export const AuthenticateOtpBodySchema = {
  $id: 'AuthenticateOtpBody',
  type: 'object',
  properties: {
    methodId: str(TOKEN),
    code: str(16, 'The 6-digit code from the email.'),
    sessionToken: str(TOKEN, 'The sessionToken of the /login or /signup answer.'),
    deviceToken: str(64, "This browser's deviceToken, if it has one: it becomes trusted for this user."),
  },
  additionalProperties: false,
} as const;

export const ResendOtpBodySchema = {
  $id: 'ResendOtpBody',
  type: 'object',
  properties: { email: str(EMAIL), sessionToken: str(TOKEN) },
  additionalProperties: false,
} as const;

export const OauthBodySchema = {
  $id: 'OauthBody',
  type: 'object',
  properties: {
    token: str(OAUTH_TOKEN, 'The third-party sign-in (ID) token.'),
    companyName: str(200, 'Sign-up only.'),
    maxTeamSize: { ...int32, description: 'Sign-up only.' },
  },
  additionalProperties: false,
} as const;

export const ForgotPasswordBodySchema = {
  $id: 'ForgotPasswordBody',
  type: 'object',
  properties: { email: str(EMAIL) },
  additionalProperties: false,
} as const;

export const ResetPasswordBodySchema = {
  $id: 'ResetPasswordBody',
  type: 'object',
  properties: { token: str(TOKEN, 'The token from the reset link.'), password: str(PASSWORD), confirmPassword: str(PASSWORD) },
  additionalProperties: false,
} as const;

export const UpdateCredentialsBodySchema = {
  $id: 'UpdateCredentialsBody',
  type: 'object',
  properties: {
    password: str(PASSWORD),
    confirmPassword: str(PASSWORD),
    firstName: str(NAME),
    middleName: str(NAME),
    lastName: str(NAME),
  },
  additionalProperties: false,
} as const;

export const UpdatePasswordBodySchema = {
  $id: 'UpdatePasswordBody',
  type: 'object',
  properties: {
    existingPassword: str(PASSWORD),
    newPassword: str(PASSWORD),
    endOtherSessions: { ...bool, description: 'End every other session of the user (this one stays).' },
  },
  additionalProperties: false,
} as const;

export const OnboardBodySchema = {
  $id: 'OnboardBody',
  type: 'object',
  properties: {
    maxTeamSize: int32,
    companyName: str(200),
    role: str(NAME, "The user's job title."),
    phoneNumber: str(32),
    city: str(NAME),
    country: str(NAME),
    // Empty text is "not given": identity answers it with the spec's message beside the other fields' problems.
    heardAboutUs: {
      type: 'string',
      enum: [...REFERRAL_SOURCES, ''],
      description: 'How the user heard about us: one of the referral options (spec platform-core §3); empty is refused by identity as missing.',
    },
  },
  additionalProperties: false,
} as const;

export const UpdateMeBodySchema = {
  $id: 'UpdateMeBody',
  type: 'object',
  properties: { firstName: str(NAME), middleName: str(NAME), lastName: str(NAME) },
  additionalProperties: false,
} as const;

// ----- teams: workspaces, the organization, members and invites (spec platform-core §3, §7; registered by routes/teams.ts) -----

export const WorkspaceDetailSchema = {
  $id: 'WorkspaceDetail',
  type: 'object',
  description: "A workspace (the spec's entity) with its details (spec platform-core §3).",
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    address: { type: 'string' },
    email: { type: 'string' },
    bankName: { type: 'string' },
    accountNumber: { type: 'string' },
    bankAddress: { type: 'string' },
    accountType: { type: 'string' },
    maxTeamSize: { type: 'integer', description: '0 when not given.' },
    memberCount: { type: 'integer' },
    ownerEmail: { type: 'string' },
    isDefault: { type: 'boolean' },
    organizationId: { type: 'string' },
    role: { type: 'string', description: "The caller's role in it." },
  },
  required: [
    'id',
    'name',
    'address',
    'email',
    'bankName',
    'accountNumber',
    'bankAddress',
    'accountType',
    'maxTeamSize',
    'memberCount',
    'ownerEmail',
    'isDefault',
    'organizationId',
    'role',
  ],
  additionalProperties: false,
} as const;

export const OrganizationSchema = {
  $id: 'Organization',
  type: 'object',
  description: 'The organization of the current workspace (spec platform-core §3). No subscription exists until billing is built: null.',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    owner: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        email: { type: 'string' },
        firstName: { type: 'string' },
        middleName: { type: 'string' },
        lastName: { type: 'string' },
      },
      required: ['id', 'email', 'firstName', 'middleName', 'lastName'],
      additionalProperties: false,
    },
    memberCount: { type: 'integer' },
    isDefault: { type: 'boolean' },
    type: { type: 'string', enum: ['business', 'firm'] },
    workspaces: { type: 'array', items: { $ref: 'WorkspaceDetail#' } },
    subscription: { type: 'null' },
  },
  required: ['id', 'name', 'owner', 'memberCount', 'isDefault', 'type', 'workspaces', 'subscription'],
  additionalProperties: false,
} as const;

export const MemberSchema = {
  $id: 'Member',
  type: 'object',
  description: 'A team member: a user with access (type user) or an open invite (type invite).',
  properties: {
    id: { type: 'string', description: 'The user id (type user) or the invite id (type invite).' },
    firstName: { type: 'string' },
    middleName: { type: 'string' },
    lastName: { type: 'string' },
    email: { type: 'string' },
    role: { type: 'string' },
    status: { type: 'string', enum: ['pending', 'verified', 'revoked'] },
    statusLabel: { type: 'string', enum: ['Pending', 'Active', 'Inactive'] },
    joinedOn: { type: 'string' },
    type: { type: 'string', enum: ['user', 'invite'] },
    organizationCount: { type: 'integer' },
    organizations: {
      type: 'array',
      items: {
        type: 'object',
        properties: { id: { type: 'string' }, name: { type: 'string' }, organizationJoinDate: { type: 'string' } },
        required: ['id', 'name', 'organizationJoinDate'],
        additionalProperties: false,
      },
    },
    entities: {
      type: 'array',
      items: {
        type: 'object',
        properties: { id: { type: 'string' }, name: { type: 'string' }, organizationId: { type: 'string' }, userRole: { type: 'string' } },
        required: ['id', 'name', 'organizationId', 'userRole'],
        additionalProperties: false,
      },
    },
  },
  required: [
    'id',
    'firstName',
    'middleName',
    'lastName',
    'email',
    'role',
    'status',
    'statusLabel',
    'joinedOn',
    'type',
    'organizationCount',
    'organizations',
    'entities',
  ],
  additionalProperties: false,
} as const;

export const InviteSchema = {
  $id: 'Invite',
  type: 'object',
  description: 'An invite (spec platform-core §3). status pending, verified or revoked is shown as Pending, Active, Inactive.',
  properties: {
    id: { type: 'string' },
    createdOn: { type: 'string' },
    updatedOn: { type: 'string' },
    vendorUserId: { type: 'string', description: 'The user who accepted it; empty until then.' },
    email: { type: 'string' },
    status: { type: 'string', enum: ['pending', 'verified', 'revoked'] },
    statusLabel: { type: 'string', enum: ['Pending', 'Active', 'Inactive'] },
    role: { type: 'string' },
    firstName: { type: 'string' },
    middleName: { type: 'string' },
    lastName: { type: 'string' },
    expiryDate: { type: 'string' },
    isExpired: { type: 'boolean', description: 'A pending invite past its expiry date: its link no longer works.' },
    workspaceIds: { type: 'array', items: { type: 'string' } },
    invitedByEmail: { type: 'string' },
  },
  required: [
    'id',
    'createdOn',
    'updatedOn',
    'vendorUserId',
    'email',
    'status',
    'statusLabel',
    'role',
    'firstName',
    'middleName',
    'lastName',
    'expiryDate',
    'isExpired',
    'workspaceIds',
    'invitedByEmail',
  ],
  additionalProperties: false,
} as const;

/** Identity's schemas, registered before its routes (with the shared MessageResponse, in the OpenAPI document's order). */
export const IDENTITY_SCHEMAS = [
  WorkspaceSchema,
  OnboardingProfileSchema,
  UserSchema,
  SignUpBodySchema,
  SignUpResponseSchema,
  LoginBodySchema,
  LoginSignedInSchema,
  LoginCodeSentSchema,
  LoginResponseSchema,
  AuthenticateOtpBodySchema,
  SessionResponseSchema,
  ResendOtpBodySchema,
  ResendOtpResponseSchema,
  OauthBodySchema,
  OauthResponseSchema,
  ForgotPasswordBodySchema,
  MessageResponseSchema,
  ResetPasswordBodySchema,
  ResetPasswordResponseSchema,
  UpdateCredentialsBodySchema,
  UpdatePasswordBodySchema,
  OnboardBodySchema,
  UpdateMeBodySchema,
] as const;
