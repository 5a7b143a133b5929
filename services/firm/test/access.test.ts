// What a firm member may open, as identity is told (docs/decisions/0008-firm-access.md): pure rules.
import { describe, expect, it } from 'vitest';
import { effectiveAccess, WORKSPACE_ROLE_OF } from '../src/domain/firm.js';

const kept = ['org-1', 'org-2', 'org-3'];

describe('effectiveAccess', () => {
  it('opens every kept organization to the owner and admins, as Admin', () => {
    for (const role of ['owner', 'admin'] as const) {
      expect(effectiveAccess(role, kept, [])).toEqual(kept.map((organizationId) => ({ organizationId, role: 'Admin' })));
    }
  });

  it("opens to an accountant only the kept organizations given to them, as Accountant, in the firm's order", () => {
    expect(effectiveAccess('accountant', kept, ['org-3', 'org-1', 'gone'])).toEqual([
      { organizationId: 'org-1', role: 'Accountant' },
      { organizationId: 'org-3', role: 'Accountant' },
    ]);
    expect(effectiveAccess('accountant', kept, [])).toEqual([]);
  });

  it('opens nothing to someone who is no longer a member', () => {
    expect(effectiveAccess(undefined, kept, kept)).toEqual([]);
  });

  it('maps every firm role to a workspace role below Owner', () => {
    expect(WORKSPACE_ROLE_OF).toEqual({ owner: 'Admin', admin: 'Admin', accountant: 'Accountant' });
  });
});
