import { VIEWER_DISABLED_MESSAGE, userAfterWorkspaceDeleted, type User, type Workspace, type WorkspaceDetail } from '@ledgerline/api';
import { describe, expect, it } from 'vitest';
import {
  COUNTRY_REQUIRED,
  FIRM_MANAGE_MESSAGE,
  FIRM_NAME_REQUIRED,
  TEAM_MANAGE_MESSAGE,
  TEAM_SIZE_INVALID,
  WORKSPACE_NAME_REQUIRED,
  accessChanges,
  firmEditBlock,
  inviteNames,
  inviteStatusText,
  memberRoleIn,
  personName,
  roleLabel,
  teamEditBlock,
  validateFirmForm,
  validateInviteForm,
  validateWorkspaceForm,
  workspaceChanges,
  workspaceFormValues,
} from '../src/rules';

const detail: WorkspaceDetail = {
  id: 'w1',
  name: 'Main',
  address: '',
  email: '',
  bankName: '',
  accountNumber: '',
  bankAddress: '',
  accountType: '',
  maxTeamSize: 0,
  memberCount: 1,
  ownerEmail: 'o@example.com',
  isDefault: true,
  organizationId: 'o1',
  role: 'Owner',
};

describe('who may manage the team', () => {
  it("a Viewer sees the spec's message, an Accountant the server's, Owner and Admin may", () => {
    expect(teamEditBlock('Viewer')).toBe(VIEWER_DISABLED_MESSAGE);
    expect(VIEWER_DISABLED_MESSAGE).toBe('Editing actions are disabled for your account');
    expect(teamEditBlock('Accountant')).toBe(TEAM_MANAGE_MESSAGE);
    expect(teamEditBlock('Admin')).toBeNull();
    expect(teamEditBlock('Owner')).toBeNull();
    expect(teamEditBlock(undefined)).toBe(VIEWER_DISABLED_MESSAGE);
  });

  it('a firm accountant cannot manage the firm; owner and admin can', () => {
    expect(firmEditBlock('accountant')).toBe(FIRM_MANAGE_MESSAGE);
    expect(firmEditBlock('admin')).toBeNull();
    expect(firmEditBlock('owner')).toBeNull();
  });
});

describe('how members and invites are shown', () => {
  it('names, else the email', () => {
    expect(personName({ firstName: 'Ada', middleName: ' ', lastName: 'Lovelace', email: 'a@x.io' })).toBe('Ada Lovelace');
    expect(personName({ firstName: '', middleName: '', lastName: '', email: 'a@x.io' })).toBe('a@x.io');
    expect(roleLabel('accountant')).toBe('Accountant');
  });

  it('status Active, Pending, Inactive as the server labels them; an open invite past its date is Expired', () => {
    expect(inviteStatusText({ status: 'verified', statusLabel: 'Active', isExpired: false })).toBe('Active');
    expect(inviteStatusText({ status: 'pending', statusLabel: 'Pending', isExpired: false })).toBe('Pending');
    expect(inviteStatusText({ status: 'revoked', statusLabel: 'Inactive', isExpired: true })).toBe('Inactive');
    expect(inviteStatusText({ status: 'pending', statusLabel: 'Pending', isExpired: true })).toBe('Expired');
  });

  it("a member's role in a workspace, else their organization role", () => {
    const member = { role: 'Viewer', entities: [{ id: 'w2', name: 'Sub', organizationId: 'o1', userRole: 'Admin' }] };
    expect(memberRoleIn(member, 'w2')).toBe('Admin');
    expect(memberRoleIn(member, 'w9')).toBe('Viewer');
  });
});

describe('forms', () => {
  it('workspace: name required, email valid when given, team size a whole number', () => {
    const values = workspaceFormValues(detail);
    expect(values.maxTeamSize).toBe('');
    expect(validateWorkspaceForm({ ...values, name: '  ' })).toEqual({ name: WORKSPACE_NAME_REQUIRED });
    expect(validateWorkspaceForm({ ...values, email: 'nope' })).toEqual({ email: 'Please enter a valid email' });
    expect(validateWorkspaceForm({ ...values, maxTeamSize: '0' })).toEqual({ maxTeamSize: TEAM_SIZE_INVALID });
    expect(validateWorkspaceForm({ ...values, maxTeamSize: '2.5' })).toEqual({ maxTeamSize: TEAM_SIZE_INVALID });
    expect(validateWorkspaceForm({ ...values, maxTeamSize: '12' })).toEqual({});
  });

  it('workspace: only changed fields are sent, trimmed, the email lowercased, the size a number', () => {
    const values = { ...workspaceFormValues(detail), name: 'Main', address: ' 1 Main St ', email: 'Books@X.io', maxTeamSize: '12' };
    expect(workspaceChanges(detail, values)).toEqual({ address: '1 Main St', email: 'books@x.io', maxTeamSize: 12 });
    expect(workspaceChanges(detail, workspaceFormValues(detail))).toEqual({});
  });

  it('invite: the email is required and valid; empty names are left out', () => {
    expect(validateInviteForm({ email: '', firstName: '', middleName: '', lastName: '' })).toEqual({ email: 'Email cannot be empty' });
    expect(validateInviteForm({ email: 'x@', firstName: '', middleName: '', lastName: '' })).toEqual({ email: 'Please enter a valid email' });
    expect(inviteNames({ email: ' Grace@Example.com ', firstName: 'Grace', middleName: ' ', lastName: 'Hopper' })).toEqual({
      email: 'grace@example.com',
      firstName: 'Grace',
      lastName: 'Hopper',
    });
  });

  it('firm: name and country required', () => {
    expect(validateFirmForm({ firmName: ' ', country: '' })).toEqual({ firmName: FIRM_NAME_REQUIRED, country: COUNTRY_REQUIRED });
    expect(validateFirmForm({ firmName: 'Ledger & Co', country: 'US' })).toEqual({});
  });

  it('firm access: what to give and what to take away', () => {
    expect(accessChanges(['a', 'b'], ['b', 'c'])).toEqual({ give: ['c'], remove: ['a'] });
    expect(accessChanges([], [])).toEqual({ give: [], remove: [] });
  });
});

describe('deleting a workspace: the selection follows spec §4', () => {
  const ws = (id: string, isDefault: boolean, role: Workspace['role'] = 'Owner'): Workspace => ({
    id,
    name: id,
    organizationId: 'o1',
    organizationName: 'Org',
    role,
    isDefault,
  });
  const user = (current: Workspace, workspaces: Workspace[]): User =>
    ({
      id: 'u',
      firstName: 'A',
      middleName: '',
      lastName: 'B',
      email: 'a@b.io',
      isVerified: true,
      userType: 'business',
      role: current.role,
      workspace: current,
      supportHash: '',
      isOnboarded: true,
      workspaces,
      hasPassword: true,
      profile: null,
    }) as User;

  it("the deleted selected workspace gives way to the server's choice", () => {
    const a = ws('a', false);
    const b = ws('b', true, 'Admin');
    const c = ws('c', false);
    const after = userAfterWorkspaceDeleted(user(a, [a, b, c]), 'a', 'c');
    expect(after.workspaces.map((w) => w.id)).toEqual(['b', 'c']);
    expect(after.workspace?.id).toBe('c');
  });

  it('without a server choice: the default, else the first remaining, with its role', () => {
    const a = ws('a', false);
    const b = ws('b', false);
    const c = ws('c', true, 'Admin');
    expect(userAfterWorkspaceDeleted(user(a, [a, b, c]), 'a').workspace?.id).toBe('c');
    expect(userAfterWorkspaceDeleted(user(a, [a, b, c]), 'a').role).toBe('Admin');
    expect(userAfterWorkspaceDeleted(user(a, [a, b]), 'a', 'gone').workspace?.id).toBe('b');
  });

  it('deleting another workspace keeps the current role and drops only that one', () => {
    const a = ws('a', true, 'Admin');
    const b = ws('b', false, 'Owner');
    const after = userAfterWorkspaceDeleted(user(a, [a, b]), 'b', 'a');
    expect(after.workspaces.map((w) => w.id)).toEqual(['a']);
    expect(after.role).toBe('Admin');
  });
});
