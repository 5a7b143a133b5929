/** The firm's REST shapes (spec documents-parties-integrations §7 "Firm"), registered before its routes. */
export const object = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', properties, required, additionalProperties: false });
const strings = (names: string[]) => Object.fromEntries(names.map((n) => [n, { type: 'string' }]));

export const FirmSchema = {
  $id: 'Firm',
  type: 'object',
  description: 'An accounting firm (spec documents-parties-integrations §3).',
  properties: strings(['id', 'name', 'country', 'ownerUserId', 'createdOn']),
  required: ['id', 'name', 'country', 'ownerUserId', 'createdOn'],
  additionalProperties: false,
} as const;

export const FirmMemberSchema = {
  $id: 'FirmMember',
  type: 'object',
  description:
    "A firm team member (spec §3): role owner, admin or accountant; organizations are those the member may open (owner and admin: all of the firm's).",
  properties: {
    ...strings(['id', 'firstName', 'middleName', 'lastName', 'email', 'role', 'joinedOn', 'defaultOrganizationId']),
    status: { type: 'string', enum: ['verified'] },
    statusLabel: { type: 'string', enum: ['Active'] },
    type: { type: 'string', enum: ['user'] },
    organizationCount: { type: 'integer' },
    organizations: { type: 'array', items: object(strings(['id', 'name', 'organizationJoinDate']), ['id', 'name', 'organizationJoinDate']) },
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
    'defaultOrganizationId',
  ],
  additionalProperties: false,
} as const;

export const FirmInviteSchema = {
  $id: 'FirmInvite',
  type: 'object',
  description: 'A firm invite (spec §3): status pending, verified or revoked, shown as Pending, Active, Inactive; the link works 7 days, once.',
  properties: {
    ...strings(['id', 'createdOn', 'updatedOn', 'vendorUserId', 'vendorEmailId', 'email', 'role', 'firstName', 'middleName', 'lastName', 'expiryDate']),
    status: { type: 'string', enum: ['pending', 'verified', 'revoked'] },
    statusLabel: { type: 'string', enum: ['Pending', 'Active', 'Inactive'] },
    isExpired: { type: 'boolean' },
    organizationIds: { type: 'array', items: { type: 'string' } },
  },
  required: [
    'id',
    'createdOn',
    'updatedOn',
    'vendorUserId',
    'vendorEmailId',
    'email',
    'status',
    'statusLabel',
    'role',
    'firstName',
    'middleName',
    'lastName',
    'expiryDate',
    'isExpired',
    'organizationIds',
  ],
  additionalProperties: false,
} as const;

export const FirmOrganizationSchema = {
  $id: 'FirmOrganization',
  type: 'object',
  description:
    'A client organization the firm keeps (spec §3), as the caller may open it. workspaces: those of it the caller belongs to; no subscription until billing is built.',
  properties: {
    ...strings(['id', 'name', 'addedOn']),
    memberCount: { type: 'integer' },
    isDefault: { type: 'boolean' },
    type: { type: 'string', enum: ['business'] },
    workspaces: { type: 'array', items: object(strings(['id', 'name', 'role']), ['id', 'name', 'role']) },
    subscription: { type: 'null' },
  },
  required: ['id', 'name', 'memberCount', 'isDefault', 'type', 'workspaces', 'subscription', 'addedOn'],
  additionalProperties: false,
} as const;

export const FIRM_SCHEMAS = [FirmSchema, FirmMemberSchema, FirmInviteSchema, FirmOrganizationSchema] as const;
