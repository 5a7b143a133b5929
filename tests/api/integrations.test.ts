// The integrations service through the gateway, on the test system (identity, the gateway and integrations on fresh
// databases): POST /integrations/records answers 201 with the record, a bad title 400 naming the field, no
// workspace token 401; the record is stored in the caller's workspace only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardBody, signedUpUser, startSystem, type System } from '../support/system.js';

let system: System;

beforeAll(async () => {
  system = await startSystem({ integrations: true });
});
afterAll(async () => {
  await system?.stop();
});

describe('POST /integrations/records', () => {
  it('creates a record in the current workspace; refuses a bad title naming it and an anonymous caller', async () => {
    const { token } = await signedUpUser(system);
    const onboarded = await system.api('POST', '/onboard-user', { token, body: onboardBody });
    expect(onboarded.status).toBe(200);

    const created = await system.api('POST', '/integrations/records', { token, body: { title: 'From the gateway' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title: 'From the gateway' });
    const rows = await system.databases.integrations!.adminDb('integrations_records').select('id', 'title', 'workspace_id');
    expect(rows).toEqual([{ id: created.body.id, title: 'From the gateway', workspace_id: expect.any(String) }]);

    const bad = await system.api('POST', '/integrations/records', { token, body: { title: '' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(['title']);

    const anonymous = await system.api('POST', '/integrations/records', { body: { title: 'No one' } });
    expect(anonymous.status).toBe(401);
    expect(await system.databases.integrations!.adminDb('integrations_records').select('id')).toHaveLength(1);
  });
});
