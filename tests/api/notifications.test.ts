// The notifications routes through the gateway with the real identity, ledger and notifications services and NATS
// (decision 0040): a comment tagging a teammate gives them — and nobody else — a notification, a mail and a live
// `notification` event on their open stream; the inviter hears that the invite was accepted; the list's counts,
// filter and paging; mark read (one, some, all); preferences; bad input answers 4xx naming the field and changes
// nothing; another user's or tenant's notification id answers 404, in the path and in the body.
import { expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankingFor } from '../../services/ledger/test/support.js';
import { onboardBody, PASSWORD, signedUpUser, startSystem, uniqueEmail, type System } from '../support/system.js';

let system: System;
let owner: { token: string; workspace: string; userId: string };
let grace: { token: string; userId: string; email: string };
let alan: { token: string; userId: string; email: string };
let stranger: { token: string; workspace: string };
let txnId: string;

const tokenOf = (url: string) => new URL(url).searchParams.get('token') ?? '';

async function joinAs(role: string, firstName: string, lastName: string): Promise<{ token: string; userId: string; email: string }> {
  const email = uniqueEmail(firstName.toLowerCase());
  const sent = await system.api('POST', '/send-invite', { token: owner.token, workspace: owner.workspace, body: { email, role, firstName, lastName } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  const mail = await system.mailTo(email, /invited to/);
  const link = /https?:\/\/\S+\/verify-invite\?token=[\w-]+/.exec(mail.text ?? '')?.[0];
  if (!link) throw new Error(`no invite link in "${mail.text}"`);
  const accepted = await system.api('POST', '/verify-invite', { body: { token: tokenOf(link), password: PASSWORD, confirmPassword: PASSWORD } });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  return { token: accepted.body.sessionToken, userId: accepted.body.user.id, email };
}

const list = async (who: { token: string }, query = '', workspace = owner.workspace) => {
  const r = await system.api('GET', `/internal-notifications${query}`, { token: who.token, workspace });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as {
    data: { id: string; type: string; message: string; redirectUrl: string; isRead: boolean; status: string; data: Record<string, string> }[];
    meta: { page: number; take: number; itemCount: number; pageCount: number; hasNextPage: boolean; hasPreviousPage: boolean };
    unreadCount: number;
    readCount: number;
  };
};

const comment = async (text: string, taggedUsers: string[]) => {
  const posted = await system.api('POST', '/transactions/comment', {
    token: owner.token,
    workspace: owner.workspace,
    body: { transactionId: txnId, comment: text, taggedUsers },
  });
  expect(posted.status, JSON.stringify(posted.body)).toBe(200);
};

/** Opens the user's live stream as the web app does (fetch with the bearer header); collects its events. */
async function openStream(who: { token: string }, workspace: string) {
  const controller = new AbortController();
  const res = await fetch(`${system.gatewayUrl}/internal-notifications/stream`, {
    headers: { authorization: `Bearer ${who.token}`, 'x-workspace-id': workspace, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const events: { event: string; data: Record<string, string> }[] = [];
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data) events.push({ event, data: JSON.parse(data) });
      }
    }
  })();
  await expectEventually(() => expect(events.map((e) => e.event)).toContain('ready'));
  return { events, close: () => controller.abort() };
}

beforeAll(async () => {
  system = await startSystem({
    ledger: true,
    notifications: true,
    gatewayEnv: { RATE_LIMIT_GLOBAL_MAX: '100000', RATE_LIMIT_LOGIN_MAX: '100000', RATE_LIMIT_CODE_MAX: '100000' },
  });
  const a = await signedUpUser(system);
  expect((await system.api('POST', '/onboard-user', { token: a.token, body: onboardBody })).status).toBe(200);
  owner = { token: a.token, workspace: a.user.workspace.id, userId: a.user.id };
  const s = await signedUpUser(system);
  expect((await system.api('POST', '/onboard-user', { token: s.token, body: onboardBody })).status).toBe(200);
  stranger = { token: s.token, workspace: s.user.workspace.id };
  const banking = bankingFor(system.bus, owner.workspace);
  await banking.add(await banking.link(), { amountCents: -4_250, name: 'Paper Supply Co' });
  grace = await joinAs('Viewer', 'Grace', 'Hopper');
  alan = await joinAs('Accountant', 'Alan', 'Turing');
  txnId = await expectEventually(
    async () => {
      const r = await system.api('GET', '/transactions/v2?take=10', { token: owner.token, workspace: owner.workspace });
      expect(r.body.data).toHaveLength(1);
      return r.body.data[0].id as string;
    },
    { timeoutMs: 30_000 },
  );
  // The ledger knows the members it may tag (identity's member.changed).
  await expectEventually(
    async () => expect((await system.api('GET', '/transactions/taggable-users', { token: owner.token, workspace: owner.workspace })).body.data).toHaveLength(3),
    { timeoutMs: 30_000 },
  );
}, 240_000);
afterAll(async () => system?.stop());

describe('notifications through the gateway', () => {
  it('tells the tagged teammate — live, in the list and by mail — and nobody else; the inviter hears of each accepted invite', async () => {
    const stream = await openStream(grace, owner.workspace);
    const alansStream = await openStream(alan, owner.workspace);
    await comment('Grace, what was this toner?', [grace.userId]);

    await expectEventually(() => expect(stream.events.filter((e) => e.event === 'notification')).toHaveLength(1), { timeoutMs: 15_000 });
    const mine = await list(grace);
    expect(mine.unreadCount).toBe(1);
    expect(mine.readCount).toBe(0);
    expect(mine.data).toHaveLength(1);
    const [n] = mine.data;
    expect(n).toMatchObject({
      type: 'comment_tagged',
      message: 'Ada Lovelace tagged you in a comment: “Grace, what was this toner?”',
      redirectUrl: `/transactions?tab=all&txn=${txnId}`,
      isRead: false,
      status: 'unread',
      data: { comment: 'Grace, what was this toner?', userName: 'Ada Lovelace', transactionId: txnId },
    });
    expect(stream.events.find((e) => e.event === 'notification')?.data).toEqual({ id: n!.id, type: 'comment_tagged' });
    const mail = await system.mailTo(grace.email, /tagged in a comment/);
    expect(mail.text).toContain(`/transactions?tab=all&txn=${txnId}`);

    // Alan was not tagged: nothing in his list or on his stream. The owner (the author) got no comment notification,
    // but one "accepted your invite" per teammate.
    expect((await list(alan)).data).toEqual([]);
    expect(alansStream.events.filter((e) => e.event === 'notification')).toEqual([]);
    await expectEventually(async () =>
      expect((await list(owner)).data.map((x) => x.message).sort()).toEqual([
        'Alan Turing accepted your invite and joined as Accountant',
        'Grace Hopper accepted your invite and joined as Viewer',
      ]),
    );
    stream.close();
    alansStream.close();
  });

  it('filters by isRead, pages, marks one, some and all read; counts follow', async () => {
    await comment('Second', [alan.userId]);
    await comment('Third', [alan.userId]);
    await comment('Fourth', [alan.userId]);
    await expectEventually(async () => expect((await list(alan)).unreadCount).toBe(3));
    const page1 = await list(alan, '?take=2');
    expect(page1.data.map((x) => x.data.comment)).toEqual(['Fourth', 'Third']);
    expect(page1.meta).toEqual({ page: 1, take: 2, itemCount: 3, pageCount: 2, hasPreviousPage: false, hasNextPage: true });
    expect((await list(alan, '?take=2&page=2')).data.map((x) => x.data.comment)).toEqual(['Second']);

    const one = await system.api('PATCH', `/internal-notifications/mark-read/${page1.data[0]!.id}`, { token: alan.token, workspace: owner.workspace });
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(one.body).toMatchObject({ id: page1.data[0]!.id, isRead: true, status: 'read' });
    expect((await list(alan, '?isRead=true')).data.map((x) => x.data.comment)).toEqual(['Fourth']);
    expect(await list(alan, '?isRead=false')).toMatchObject({ unreadCount: 2, readCount: 1, meta: { itemCount: 2 } });

    const some = await system.api('PATCH', '/internal-notifications/mark-read', {
      token: alan.token,
      workspace: owner.workspace,
      body: { notificationIds: [page1.data[1]!.id] },
    });
    expect(some.body).toEqual({ message: 'Notifications marked as read', marked: 1, unreadCount: 1 });
    const all = await system.api('PATCH', '/internal-notifications/mark-read', { token: alan.token, workspace: owner.workspace, body: {} });
    expect(all.body).toEqual({ message: 'Notifications marked as read', marked: 1, unreadCount: 0 });
    expect(await list(alan)).toMatchObject({ unreadCount: 0, readCount: 3 });
  });

  it("answers 404 for another user's or another tenant's notification, in the path and in the body, and changes nothing", async () => {
    const gracesId = (await list(grace)).data[0]!.id;
    const before = await list(grace);
    for (const [who, workspace] of [
      [alan, owner.workspace],
      [stranger, stranger.workspace],
    ] as const) {
      const path = await system.api('PATCH', `/internal-notifications/mark-read/${gracesId}`, { token: who.token, workspace });
      expect(path.status).toBe(404);
      const body = await system.api('PATCH', '/internal-notifications/mark-read', { token: who.token, workspace, body: { notificationIds: [gracesId] } });
      expect(body.status).toBe(404);
      expect(body.body.errors.map((e: { field: string }) => e.field)).toEqual(['notificationIds']);
    }
    expect((await list(stranger, '', stranger.workspace)).data).toEqual([]);
    expect(await list(grace)).toEqual(before);
  });

  it('keeps mail preferences per user: turned off, a tag still notifies but sends no mail', async () => {
    const prefs = await system.api('GET', '/internal-notifications/preferences', { token: alan.token, workspace: owner.workspace });
    expect(prefs.body).toEqual({ emailCommentTagged: true, emailReconnectRequired: true });
    const off = await system.api('PATCH', '/internal-notifications/preferences', {
      token: alan.token,
      workspace: owner.workspace,
      body: { emailCommentTagged: false },
    });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body).toEqual({ emailCommentTagged: false, emailReconnectRequired: true });
    // Mail is written in the same transaction as the notification (the mail outbox's rows keep their address after
    // sending): once the notification shows, a mail would be there.
    const mailsTo = async (email: string) =>
      Number((await system.databases.notifications!.adminDb('mail_outbox').where({ to: email }).count({ n: '*' }))[0]!.n);
    const before = await mailsTo(alan.email);
    expect(before).toBe(3);
    await comment('No mail for this one', [alan.userId]);
    await expectEventually(async () => expect((await list(alan)).unreadCount).toBe(1));
    expect(await mailsTo(alan.email)).toBe(before);
  });

  it('refuses bad input naming the field, an anonymous caller, and a stream request that does not accept events', async () => {
    const as = { token: grace.token, workspace: owner.workspace };
    const before = await list(grace);
    const field = async (method: string, path: string, body?: unknown) => {
      const r = await system.api(method, path, { ...as, body });
      expect(r.status, `${method} ${path} ${JSON.stringify(r.body)}`).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      return (r.body.errors ?? []).map((e: { field: string }) => e.field);
    };
    expect(await field('GET', '/internal-notifications?isRead=maybe')).toEqual(['isRead']);
    expect(await field('GET', '/internal-notifications?take=101')).toEqual(['take']);
    expect(await field('GET', '/internal-notifications?take=0')).toEqual(['take']);
    expect(await field('GET', '/internal-notifications?page=99999999999')).toEqual(['page']);
    expect(await field('GET', '/internal-notifications?page=abc')).toEqual(['page']);
    expect(await field('PATCH', '/internal-notifications/mark-read/not-a-uuid')).toEqual(['id']);
    expect(await field('PATCH', '/internal-notifications/mark-read', { notificationIds: ['\u0000'] })).toEqual(['notificationIds.0']);
    expect(await field('PATCH', '/internal-notifications/mark-read', { notificationIds: 'x' })).toEqual(['notificationIds']);
    expect(await field('PATCH', '/internal-notifications/preferences', { emailCommentTagged: 'yes' })).toEqual(['emailCommentTagged']);
    expect(await field('PATCH', '/internal-notifications/preferences', {})).toEqual(['emailCommentTagged']);
    expect(await list(grace)).toEqual(before);
    expect(await system.api('GET', '/internal-notifications/preferences', as)).toMatchObject({ body: { emailCommentTagged: true } });
    expect((await system.api('GET', '/internal-notifications')).status).toBe(401);
    expect((await system.api('GET', '/internal-notifications/stream')).status).toBe(401);
    const notAccepting = await system.api('GET', '/internal-notifications/stream', as);
    expect(notAccepting.status).toBe(406);
    expect(notAccepting.body.errors.map((e: { field: string }) => e.field)).toEqual(['accept']);
  });
});
