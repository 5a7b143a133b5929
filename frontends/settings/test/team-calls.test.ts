// Every call the team and firm screens make is a route of the gateway's OpenAPI document, with the method,
// and every route of those areas has a call: the screens cannot drift from the contract unnoticed.
import { readFileSync } from 'node:fs';
import { firmTeamApi, teamsApi, type ApiClient, type HttpMethod } from '@ledgerline/api';
import { describe, expect, it } from 'vitest';

const openapi = JSON.parse(readFileSync(new URL('../../api/openapi.json', import.meta.url), 'utf8')) as { paths: Record<string, Record<string, unknown>> };
const ID = '0b6f3c52-1c1e-4d8e-9f0a-2b7c6d5e4f31';

/** A client that records each request instead of sending it. */
function recorder(): { client: ApiClient; calls: { method: HttpMethod; path: string; body: unknown; query: unknown }[] } {
  const calls: { method: HttpMethod; path: string; body: unknown; query: unknown }[] = [];
  const verb =
    (method: HttpMethod) =>
    (path: string, init: { body?: unknown; params?: { path?: Record<string, string>; query?: unknown } } = {}) => {
      const filled = path.replace(/\{([^}]+)\}/g, (_all, name: string) => init.params?.path?.[name] ?? `{${name}}`);
      calls.push({ method, path: filled, body: init.body, query: init.params?.query });
      return Promise.resolve({});
    };
  const client = { get: verb('GET'), post: verb('POST'), put: verb('PUT'), patch: verb('PATCH'), delete: verb('DELETE') } as unknown as ApiClient;
  return { client, calls };
}

/** The OpenAPI route a concrete path matches (`{id}` templates), with its method. */
function routeOf(method: string, path: string): string | undefined {
  return Object.keys(openapi.paths).find((template) => {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    return pattern.test(path) && openapi.paths[template]?.[method.toLowerCase()] !== undefined;
  });
}

describe("the team and firm calls are the gateway's routes", () => {
  it('each call names a documented route and method', async () => {
    const { client, calls } = recorder();
    await Promise.all([
      teamsApi.listWorkspaces(client),
      teamsApi.createWorkspace(client, { name: 'A' }),
      teamsApi.updateWorkspace(client, { id: ID, address: 'x' }),
      teamsApi.deleteWorkspace(client, ID),
      teamsApi.getOrganization(client),
      teamsApi.listMembers(client, 'user'),
      teamsApi.updateMember(client, ID, { role: 'Admin', workspaceId: ID }),
      teamsApi.removeMember(client, ID),
      teamsApi.listInvites(client),
      teamsApi.sendInvite(client, { email: 'a@b.io' }),
      teamsApi.revokeInvite(client, ID),
      teamsApi.updateInvite(client, ID, { resend: true }),
      firmTeamApi.me(client),
      firmTeamApi.update(client, { firmName: 'F', country: 'US' }),
      firmTeamApi.members(client),
      firmTeamApi.organizations(client),
      firmTeamApi.addOrganization(client, { name: 'C' }),
      firmTeamApi.removeOrganization(client, ID),
      firmTeamApi.makeDefaultOrganization(client, ID),
      firmTeamApi.invite(client, { email: 'a@b.io', role: 'accountant', organizationIds: [ID] }),
      firmTeamApi.revokeInvite(client, ID),
      firmTeamApi.updateMember(client, ID, 'admin'),
      firmTeamApi.removeMember(client, ID),
      firmTeamApi.changeAccess(client, ID, { type: 'give-access', organizationIds: [ID] }),
    ]);
    const routes = calls.map((c) => `${c.method} ${routeOf(c.method, c.path) ?? `(undocumented) ${c.path}`}`);
    for (const r of routes) expect(r).not.toContain('(undocumented)');

    // Every mutating or listing route of the screens' areas is called (the invite verification and
    // acceptance and the single-record reads belong to the shell or are not needed by a list screen).
    const area = Object.entries(openapi.paths)
      .flatMap(([path, methods]) =>
        Object.keys(methods)
          .filter((m) => ['get', 'post', 'patch', 'delete'].includes(m))
          .map((m) => `${m.toUpperCase()} ${path}`),
      )
      .filter((r) => /\/(workspace|organization|members|invites|send-invite|revoke-invite|accounting-firm)(\/|$)/.test(r));
    const notCalled = area.filter((r) => !routes.includes(r));
    expect(notCalled.sort()).toEqual(['GET /accounting-firm/invite/{id}', 'GET /accounting-firm/member/{id}', 'POST /accounting-firm/accept-invite/']);
  });

  it('the revoke call sends the id in the body; the member filter goes in the query', async () => {
    const { client, calls } = recorder();
    await teamsApi.revokeInvite(client, ID);
    await teamsApi.listMembers(client, 'invite');
    expect(calls).toEqual([
      { method: 'POST', path: '/revoke-invite', body: { id: ID }, query: undefined },
      { method: 'GET', path: '/members', body: undefined, query: { type: 'invite' } },
    ]);
  });
});
