import type { Firm, Invite, Member, Organization } from '@ledgerline/proto/firm/v1/firm_pb';
import type { FastifyRequest } from 'fastify';
import { authOf } from '../http/auth.js';

/** The firm service's messages as the REST answers. */
const LABEL = { pending: 'Pending', verified: 'Active', revoked: 'Inactive' } as const;

export function firmJson(f: Firm | undefined) {
  if (!f) throw new Error('firm answered without a firm');
  return { id: f.id, name: f.name, country: f.country, ownerUserId: f.ownerUserId, createdOn: f.createdOn };
}

export function memberJson(m: Member | undefined) {
  if (!m) throw new Error('firm answered without a member');
  return {
    id: m.id,
    firstName: m.firstName,
    middleName: m.middleName,
    lastName: m.lastName,
    email: m.email,
    role: m.role,
    status: 'verified',
    statusLabel: 'Active',
    joinedOn: m.joinedOn,
    type: 'user',
    organizationCount: m.organizationCount,
    organizations: m.organizations.map((o) => ({ id: o.id, name: o.name, organizationJoinDate: o.organizationJoinDate })),
    defaultOrganizationId: m.defaultOrganizationId,
  };
}

export function inviteJson(i: Invite | undefined) {
  if (!i) throw new Error('firm answered without an invite');
  const status = i.status === 'verified' || i.status === 'revoked' ? i.status : 'pending';
  return {
    id: i.id,
    createdOn: i.createdOn,
    updatedOn: i.updatedOn,
    vendorUserId: i.vendorUserId,
    vendorEmailId: i.vendorEmailId,
    email: i.email,
    status,
    statusLabel: LABEL[status],
    role: i.role,
    firstName: i.firstName,
    middleName: i.middleName,
    lastName: i.lastName,
    expiryDate: i.expiryDate,
    isExpired: i.isExpired,
    organizationIds: [...i.organizationIds],
  };
}

export function organizationJson(req: FastifyRequest, o: Organization | undefined) {
  if (!o) throw new Error('firm answered without an organization');
  const workspaces = authOf(req)
    .workspaces.filter((w) => w.organizationId === o.id)
    .map((w) => ({ id: w.id, name: w.name, role: w.role }));
  return { id: o.id, name: o.name, memberCount: o.memberCount, isDefault: o.isDefault, type: 'business', workspaces, subscription: null, addedOn: o.addedOn };
}
