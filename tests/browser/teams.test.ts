// Settings' team and firm screens in real Chromium against the real gateway, identity and firm service:
// workspaces (create, edit, delete; the shell's selection follows spec §4), members and invites (the invite
// mail through the local mailbox, Pending then Inactive once revoked, a role change), a Viewer's disabled
// controls with the spec's message, and a firm's client organizations and accountant invite. Layout asserted:
// dialogs and tables inside the window, no sideways scroll at 390 px; screenshots in
// test-results/screenshots/teams-*.png.
import { mkdirSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardBody, PASSWORD, signedUpUser, startSystem, uniqueEmail, type System } from '../support/system.js';
import { field, inFreshPage, launchBrowser, logInThroughForm, notice, TEST_MS, visible, waitForPath, settledLayout } from './support.js';

let system: System & { webUrl: string };
let browser: Browser;

const SCREENSHOTS = new URL('../../test-results/screenshots/', import.meta.url);
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const [started, launched] = await Promise.all([
    startSystem({
      web: true,
      firm: true,
      gatewayEnv: { RATE_LIMIT_GLOBAL_MAX: '100000', RATE_LIMIT_LOGIN_MAX: '1000', RATE_LIMIT_CODE_MAX: '1000', IDENTITY_TIMEOUT_MS: '15000' },
    }),
    launchBrowser(),
  ]);
  browser = launched;
  if (started.webUrl === null) throw new Error('startSystem({ web: true }) served no web app');
  system = { ...started, webUrl: started.webUrl };
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await system?.stop();
});

interface Owner {
  email: string;
  token: string;
  workspace: string;
}

async function owner(company = 'Analytical Co'): Promise<Owner> {
  const u = await signedUpUser(system);
  const onboarded = await system.api('POST', '/onboard-user', { token: u.token, body: { ...onboardBody, companyName: company } });
  if (onboarded.status !== 200) throw new Error(`onboard-user answered ${onboarded.status}: ${JSON.stringify(onboarded.body)}`);
  return { email: u.email, token: u.token, workspace: u.user.workspace.id };
}

/** The token in the newest workspace invite mail to `email`. */
async function inviteToken(email: string): Promise<string> {
  const mail = await system.mailTo(email, /invited to/);
  const link = /https?:\/\/\S+\/verify-invite\?token=[\w-]+/.exec(mail.text ?? '')?.[0];
  if (!link) throw new Error(`no invite link in "${mail.text}"`);
  return new URL(link).searchParams.get('token') ?? '';
}

/** Someone the owner invited through the API who set a password from the mailed link. */
async function joined(o: Owner, role: string, firstName: string): Promise<{ email: string; id: string }> {
  const email = uniqueEmail(role.toLowerCase());
  const sent = await system.api('POST', '/send-invite', { token: o.token, workspace: o.workspace, body: { email, role, firstName, lastName: 'Hopper' } });
  if (sent.status !== 201) throw new Error(`send-invite answered ${sent.status}: ${JSON.stringify(sent.body)}`);
  const accepted = await system.api('POST', '/verify-invite', { body: { token: await inviteToken(email), password: PASSWORD, confirmPassword: PASSWORD } });
  if (accepted.status !== 200) throw new Error(`verify-invite answered ${accepted.status}: ${JSON.stringify(accepted.body)}`);
  return { email, id: accepted.body.user.id };
}

async function openSettingsTab(page: Page, tab: string): Promise<void> {
  await page.goto(`/settings?tab=${tab}`);
  await waitForPath(page, '/settings');
  await visible(page.getByRole('heading', { name: 'Settings', level: 1 }));
}

/** The page never scrolls sideways: the document is no wider than the window. */
async function expectNoHorizontalScroll(page: Page, where: string): Promise<void> {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(scroll, `${where}: the page is ${scroll}px wide in a ${client}px window`).toBeLessThanOrEqual(client);
}

/** The element's box lies wholly inside the window (`horizontally`: only its left and right edges). */
async function expectInsideWindow(page: Page, locator: Locator, what: string, horizontally = false): Promise<void> {
  const box = await locator.boundingBox();
  const { width, height } = page.viewportSize()!;
  expect(box, `${what} is laid out`).not.toBeNull();
  expect(box!.x, `${what}: left edge`).toBeGreaterThanOrEqual(-0.5);
  expect(box!.x + box!.width, `${what}: right edge`).toBeLessThanOrEqual(width + 0.5);
  if (horizontally) return;
  expect(box!.y, `${what}: top edge`).toBeGreaterThanOrEqual(-0.5);
  expect(box!.y + box!.height, `${what}: bottom edge`).toBeLessThanOrEqual(height + 0.5);
}

/** Each visible header cell ends before the next begins. */
async function expectDisjointColumns(table: Locator, where: string): Promise<void> {
  const boxes = await table.locator('th').evaluateAll((cells) =>
    cells
      .map((c) => c.getBoundingClientRect())
      .filter((b) => b.width > 0)
      .map((b) => ({ left: b.left, right: b.right })),
  );
  expect(boxes.length, `${where}: visible columns`).toBeGreaterThanOrEqual(2);
  for (let i = 1; i < boxes.length; i++)
    expect(boxes[i - 1]!.right, `${where}: column ${i} runs into column ${i + 1}`).toBeLessThanOrEqual(boxes[i]!.left + 0.5);
}

/** The screen at both sizes: no sideways scroll, its tables inside the window with disjoint columns, a screenshot. */
async function bothSizes(page: Page, name: string, tables: readonly string[]): Promise<void> {
  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    await settledLayout(page);
    await expectNoHorizontalScroll(page, `${name} at ${viewport.width}px`);
    for (const label of tables) {
      const table = page.getByRole('table', { name: label, exact: true });
      await visible(table);
      await expectInsideWindow(page, table, `${name}: the ${label} table at ${viewport.width}px`, true);
      await expectDisjointColumns(table, `${name}: ${label} at ${viewport.width}px`);
    }
    await page.screenshot({ path: new URL(`teams-${name}-${size}.png`, SCREENSHOTS).pathname, fullPage: true });
  }
  await page.setViewportSize(DESKTOP);
}

/** An open dialog lies inside the window at both sizes (a sheet on a phone), with a screenshot of each. */
async function dialogFits(page: Page, name: string): Promise<void> {
  const panel = page.locator('[data-dialog-panel]');
  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    await settledLayout(page);
    await expectInsideWindow(page, panel, `the ${name} dialog at ${viewport.width}px`);
    await expectNoHorizontalScroll(page, `the ${name} dialog at ${viewport.width}px`);
    await page.screenshot({ path: new URL(`teams-${name}-dialog-${size}.png`, SCREENSHOTS).pathname });
  }
  await page.setViewportSize(DESKTOP);
}

const row = (page: Page, table: string, text: string): Locator =>
  page.getByRole('table', { name: table, exact: true }).getByRole('row').filter({ hasText: text });

async function rowAction(page: Page, label: string, item: string): Promise<void> {
  await page.getByRole('button', { name: `Actions for ${label}`, exact: true }).click();
  await page.getByRole('menuitem', { name: item, exact: true }).click();
}

async function choose(scope: Locator, page: Page, label: string, option: string): Promise<void> {
  await scope.getByRole('button', { name: new RegExp(`^${label}`) }).click();
  await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
}

/** The session the shell keeps in localStorage (spec §9: one root key). */
const storedSelection = (page: Page): Promise<string | null> =>
  page.evaluate(
    () => (JSON.parse(localStorage.getItem('ledgerline') ?? '{}') as { user?: { selectedWorkspaceId?: string | null } }).user?.selectedWorkspaceId ?? null,
  );

describe('workspaces, members and invites', () => {
  it(
    'an owner creates and edits a workspace, invites, revokes, changes a role, and deletes the selected workspace',
    async () => {
      const o = await owner();
      const colleague = await joined(o, 'Viewer', 'Grace');
      await inFreshPage(browser, system.webUrl, async (page) => {
        await page.setViewportSize(DESKTOP);
        await logInThroughForm(page, o.email, PASSWORD);
        await waitForPath(page, '/dashboard');

        // Entities: the one workspace, then a second one.
        await openSettingsTab(page, 'entities');
        await visible(page.getByRole('tab', { name: 'Entities', selected: true }));
        await visible(row(page, 'Workspaces', 'Analytical Co').getByText('Default'));
        await page.getByRole('button', { name: 'New workspace' }).click();
        const create = page.getByRole('dialog', { name: 'New workspace' });
        await create.getByRole('button', { name: 'Create workspace' }).click();
        await visible(create.getByText('Workspace name is required', { exact: true }));
        await field(page, 'Workspace name').fill('Subsidiary LLC');
        await create.getByRole('button', { name: 'Create workspace' }).click();
        await visible(notice(page, 'status', 'Workspace created'));

        // The new workspace opens (?entity=<id>) with its spec §3 details.
        await expect.poll(() => new URL(page.url()).searchParams.get('entity')).toMatch(/^[0-9a-f-]{36}$/);
        const subId = new URL(page.url()).searchParams.get('entity')!;
        const details = page.getByRole('dialog', { name: 'Subsidiary LLC' });
        await visible(details.getByRole('heading', { name: 'Subsidiary LLC' }));
        await dialogFits(page, 'workspace');
        await field(page, 'Email').fill('not-an-email');
        await details.getByRole('button', { name: 'Save changes' }).click();
        await visible(details.getByText('Please enter a valid email', { exact: true }));
        await field(page, 'Email').fill('Books@Subsidiary.example');
        await field(page, 'Address').fill('1 Main St');
        await field(page, 'Bank name').fill('First Bank');
        await field(page, 'Team size').fill('12');
        await details.getByRole('button', { name: 'Save changes' }).click();
        await visible(notice(page, 'status', 'Workspace updated'));
        expect(new URL(page.url()).searchParams.get('entity')).toBeNull();
        const listed = await system.api('GET', '/workspace', { token: o.token, workspace: o.workspace });
        expect(listed.body.workspaces.find((w: { id: string }) => w.id === subId)).toMatchObject({
          email: 'books@subsidiary.example',
          address: '1 Main St',
          bankName: 'First Bank',
          maxTeamSize: 12,
        });
        // A shared link opens the same workspace.
        await page.goto(`/settings?tab=entities&entity=${subId}`);
        await visible(page.getByRole('dialog', { name: 'Subsidiary LLC' }).getByRole('heading'));
        expect(await field(page, 'Address').inputValue()).toBe('1 Main St');
        await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
        await bothSizes(page, 'entities', ['Workspaces']);

        // Organization members: invite someone; the mail goes out and the invite is Pending.
        await page.getByRole('tab', { name: 'Organization members' }).click();
        await expect.poll(() => new URL(page.url()).searchParams.get('tab')).toBe('organization');
        await visible(row(page, 'Members', colleague.email));
        const invitee = uniqueEmail('invitee');
        await page.getByRole('button', { name: 'Invite member' }).click();
        const invite = page.getByRole('dialog', { name: 'Invite member' });
        await visible(invite.getByRole('heading'));
        // The role starts at the spec's default, Viewer; Owner is not offered.
        await expect.poll(() => invite.getByRole('button', { name: /^Role/ }).innerText()).toContain('Viewer');
        await invite.getByRole('button', { name: /^Role/ }).click();
        expect(await page.getByRole('listbox').getByRole('option').allInnerTexts()).toEqual(['Accountant', 'Admin', 'Viewer']);
        await page.getByRole('listbox').getByRole('option', { name: 'Viewer', exact: true }).click();
        await invite.getByRole('button', { name: 'Send invite' }).click();
        await visible(invite.getByText('Email cannot be empty', { exact: true }));
        await field(page, 'Email').fill(invitee);
        await field(page, 'First Name').fill('Ann');
        await field(page, 'Last Name').fill('Cole');
        await dialogFits(page, 'invite');
        await invite.getByRole('button', { name: 'Send invite' }).click();
        await visible(notice(page, 'status', 'Invite sent'));
        expect((await system.mailTo(invitee, /invited to/)).text).toMatch(/\/verify-invite\?token=/);
        await visible(row(page, 'Invites', invitee).getByText('Pending', { exact: true }));
        await bothSizes(page, 'organization', ['Members', 'Invites']);

        // Change the open invite (?invite=<id>): role Admin; then send its link again.
        await row(page, 'Invites', invitee).getByRole('button', { name: invitee, exact: true }).click();
        await expect.poll(() => new URL(page.url()).searchParams.get('invite')).toMatch(/^[0-9a-f-]{36}$/);
        const openInvite = page.getByRole('dialog', { name: invitee });
        await choose(openInvite, page, 'Role', 'Admin');
        await openInvite.getByRole('button', { name: 'Save invite' }).click();
        await visible(notice(page, 'status', 'Invite updated'));
        await visible(row(page, 'Invites', invitee).getByRole('cell', { name: 'Admin', exact: true }));
        expect(new URL(page.url()).searchParams.get('invite')).toBeNull();
        await rowAction(page, invitee, 'Edit invite');
        await page.getByRole('dialog', { name: invitee }).getByRole('button', { name: 'Resend' }).click();
        await visible(notice(page, 'status', 'Invite sent again'));

        // Revoke it (confirmation first): Inactive.
        await rowAction(page, invitee, 'Revoke invite');
        const confirm = page.getByRole('dialog', { name: 'Revoke this invite?' });
        await visible(confirm.getByRole('heading'));
        await dialogFits(page, 'revoke');
        await confirm.getByRole('button', { name: 'Revoke invite' }).click();
        await visible(notice(page, 'status', 'Invite revoked'));
        await visible(row(page, 'Invites', invitee).getByText('Inactive', { exact: true }));

        // The filter shows one member type at a time, from the URL.
        await choose(page.locator('[data-remote="settings"]'), page, 'Show', 'Invites');
        await expect.poll(() => new URL(page.url()).searchParams.get('filter')).toBe('invite');
        await expect(page.getByRole('table', { name: 'Members', exact: true }).count()).resolves.toBe(0);
        await choose(page.locator('[data-remote="settings"]'), page, 'Show', 'Members and invites');

        // Change the colleague's role: Viewer → Accountant.
        await rowAction(page, 'Grace Hopper', 'Change role');
        await expect.poll(() => new URL(page.url()).searchParams.get('member')).toBe(colleague.id);
        const member = page.getByRole('dialog', { name: 'Grace Hopper' });
        await choose(member, page, 'Role', 'Accountant');
        await member.getByRole('button', { name: 'Save role' }).click();
        await visible(notice(page, 'status', 'Member updated'));
        await visible(row(page, 'Members', colleague.email).getByText('Accountant', { exact: true }));
        const members = await system.api('GET', '/members?type=user', { token: o.token, workspace: o.workspace });
        expect(members.body.members.find((m: { id: string }) => m.id === colleague.id)).toMatchObject({ role: 'Accountant' });

        // Delete the selected workspace: the shell selects the default (spec §4) and no request names the deleted one.
        await page.evaluate((id) => {
          const stored = JSON.parse(localStorage.getItem('ledgerline') ?? '{}') as { user: { selectedWorkspaceId: string } };
          stored.user.selectedWorkspaceId = id;
          localStorage.setItem('ledgerline', JSON.stringify(stored));
        }, subId);
        await openSettingsTab(page, 'entities');
        expect(await storedSelection(page)).toBe(subId);
        const headers: string[] = [];
        page.on('request', (request) => {
          const header = request.headers()['x-workspace-id'];
          if (header) headers.push(`${request.method()} ${new URL(request.url()).pathname} ${header}`);
        });
        await rowAction(page, 'Subsidiary LLC', 'Delete workspace');
        const del = page.getByRole('dialog', { name: 'Delete Subsidiary LLC?' });
        await del.getByRole('button', { name: 'Delete workspace' }).click();
        await visible(notice(page, 'status', 'Workspace deleted'));
        await expect.poll(() => storedSelection(page)).toBe(o.workspace);
        await expect.poll(() => row(page, 'Workspaces', 'Subsidiary LLC').count()).toBe(0);
        const deleteAt = headers.findIndex((h) => h.startsWith('DELETE '));
        expect(deleteAt).toBeGreaterThanOrEqual(0);
        const after = headers.slice(deleteAt + 1);
        expect(after.length, 'requests after the deletion').toBeGreaterThan(0);
        expect(
          after.filter((h) => h.endsWith(subId)),
          'requests naming the deleted workspace',
        ).toEqual([]);
        expect(await page.getByRole('alert').filter({ hasText: 'Workspace not found' }).count()).toBe(0);

        // The last workspace cannot be deleted (asked from its own dialog this time): the server's message is shown.
        await row(page, 'Workspaces', 'Analytical Co').getByRole('button', { name: 'Analytical Co', exact: true }).click();
        await page.getByRole('dialog', { name: 'Analytical Co' }).getByRole('button', { name: 'Delete workspace' }).click();
        await page.getByRole('dialog', { name: 'Delete Analytical Co?' }).getByRole('button', { name: 'Delete workspace' }).click();
        await visible(notice(page, 'alert', 'The last workspace of an organization cannot be deleted'));
        await visible(row(page, 'Workspaces', 'Analytical Co'));
      });
    },
    TEST_MS * 2,
  );

  it(
    "a Viewer sees every editing control disabled with the spec's message; an Accountant is told why",
    async () => {
      const o = await owner('Viewer Co');
      const viewer = await joined(o, 'Viewer', 'Vera');
      await inFreshPage(browser, system.webUrl, async (page) => {
        await page.setViewportSize(DESKTOP);
        await logInThroughForm(page, viewer.email, PASSWORD);
        await waitForPath(page, '/dashboard');
        await openSettingsTab(page, 'entities');
        const message = 'Editing actions are disabled for your account';
        await visible(page.getByRole('note').filter({ hasText: message }));
        expect(await page.getByRole('button', { name: 'New workspace' }).isDisabled()).toBe(true);
        expect(await page.getByRole('button', { name: 'Actions for Viewer Co' }).isDisabled()).toBe(true);
        // The record still opens, read-only.
        await page.getByRole('button', { name: 'Viewer Co', exact: true }).click();
        const details = page.getByRole('dialog', { name: 'Viewer Co' });
        await visible(details.getByText(message));
        expect(await field(page, 'Name').isDisabled()).toBe(true);
        expect(await details.getByRole('button', { name: 'Save changes' }).isDisabled()).toBe(true);
        expect(await details.getByRole('button', { name: 'Delete workspace' }).isDisabled()).toBe(true);
        await details.getByRole('button', { name: 'Close' }).click();

        await page.getByRole('tab', { name: 'Organization members' }).click();
        await visible(page.getByRole('note').filter({ hasText: message }));
        expect(await page.getByRole('button', { name: 'Invite member' }).isDisabled()).toBe(true);
        expect(await page.getByRole('button', { name: 'Actions for Vera Hopper' }).isDisabled()).toBe(true);
        await page.screenshot({ path: new URL('teams-viewer-desktop.png', SCREENSHOTS).pathname, fullPage: true });
      });

      const accountant = await joined(o, 'Accountant', 'Alan');
      await inFreshPage(browser, system.webUrl, async (page) => {
        await page.setViewportSize(DESKTOP);
        await logInThroughForm(page, accountant.email, PASSWORD);
        await waitForPath(page, '/dashboard');
        await openSettingsTab(page, 'organization');
        await visible(page.getByRole('note').filter({ hasText: 'Only an Owner or Admin can manage the team' }));
        expect(await page.getByRole('button', { name: 'Invite member' }).isDisabled()).toBe(true);
      });
    },
    TEST_MS,
  );
});

describe('the firm profile area', () => {
  it(
    "a firm owner adds two client organizations, invites an accountant, and changes a member's access and role",
    async () => {
      const o = await owner('Ledger & Co Books');
      const created = await system.api('PATCH', '/accounting-firm', { token: o.token, body: { firmName: 'Ledger & Co', country: 'US' } });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      await inFreshPage(browser, system.webUrl, async (page) => {
        await page.setViewportSize(DESKTOP);
        await logInThroughForm(page, o.email, PASSWORD);
        await waitForPath(page, '/dashboard');
        await openSettingsTab(page, 'firm-management');
        await visible(page.getByRole('tab', { name: 'Firm Management', selected: true }));
        await visible(page.getByRole('tab', { name: 'Team Management' }));
        expect(await field(page, 'Firm name').inputValue()).toBe('Ledger & Co');
        expect(await field(page, 'Country').inputValue()).toBe('US');
        await visible(page.getByText('No client organizations yet'));

        for (const name of ['Acme Corp', 'Globex LLC']) {
          await page.getByRole('button', { name: 'Add client' }).first().click();
          const add = page.getByRole('dialog', { name: 'Add client organization' });
          await visible(add.getByRole('heading'));
          if (name === 'Acme Corp') {
            await add.getByRole('button', { name: 'Add client' }).click();
            await visible(add.getByText('Organization name is required', { exact: true }));
            await dialogFits(page, 'add-client');
          }
          await field(page, 'Organization name').fill(name);
          await add.getByRole('button', { name: 'Add client' }).click();
          await visible(notice(page, 'status', 'Organization added'));
          await visible(row(page, 'Client organizations', name));
        }
        const listed = await system.api('GET', '/accounting-firm/organizations', { token: o.token });
        expect(listed.body.organizations.map((x: { name: string }) => x.name).sort()).toEqual(['Acme Corp', 'Globex LLC']);
        // The new organizations' workspaces are the owner's: the shell's user has them at once.
        await expect
          .poll(() =>
            page.evaluate(() =>
              (JSON.parse(localStorage.getItem('ledgerline') ?? '{}') as { user: { workspaces: { organizationName: string }[] } }).user.workspaces.map(
                (w) => w.organizationName,
              ),
            ),
          )
          .toEqual(expect.arrayContaining(['Acme Corp', 'Globex LLC']));
        await bothSizes(page, 'firm-management', ['Client organizations']);

        // Team Management: invite an accountant with access to Acme Corp only.
        await page.getByRole('tab', { name: 'Team Management' }).click();
        await expect.poll(() => new URL(page.url()).searchParams.get('tab')).toBe('firm-team-management');
        await visible(row(page, 'Firm members', o.email).getByText('Owner', { exact: true }));
        const accountant = uniqueEmail('accountant');
        await page.getByRole('button', { name: 'Invite team member' }).click();
        const invite = page.getByRole('dialog', { name: 'Invite team member' });
        await invite.getByRole('button', { name: /^Role/ }).click();
        expect(await page.getByRole('listbox').getByRole('option').allInnerTexts()).toEqual(['Admin', 'Accountant']);
        await page.getByRole('listbox').getByRole('option', { name: 'Accountant', exact: true }).click();
        await field(page, 'Email').fill(accountant);
        await field(page, 'First Name').fill('Alan');
        await field(page, 'Last Name').fill('Turing');
        await invite.getByRole('checkbox', { name: 'Acme Corp' }).check();
        await dialogFits(page, 'firm-invite');
        await invite.getByRole('button', { name: 'Send invite' }).click();
        await visible(notice(page, 'status', 'Invite sent'));
        const mail = await system.mailTo(accountant, /^Join .* on Ledgerline$/);
        expect(mail.text).toMatch(/\/verify-invite\?token=[\w-]+&kind=firm/);
        await visible(row(page, 'Firm invites', accountant).getByText('Pending', { exact: true }));
        const acme = listed.body.organizations.find((x: { name: string }) => x.name === 'Acme Corp').id as string;
        const invites = await system.api('GET', '/accounting-firm/members', { token: o.token });
        expect(invites.body.invites.find((i: { email: string }) => i.email === accountant)).toMatchObject({ role: 'accountant', organizationIds: [acme] });
        await bothSizes(page, 'firm-team', ['Firm members', 'Firm invites']);

        // Revoke the invite: Inactive.
        await rowAction(page, accountant, 'Revoke invite');
        await page.getByRole('dialog', { name: 'Revoke this invite?' }).getByRole('button', { name: 'Revoke invite' }).click();
        await visible(notice(page, 'status', 'Invite revoked'));
        await visible(row(page, 'Firm invites', accountant).getByText('Inactive', { exact: true }));

        // Another accountant, invited to Acme Corp, accepts (through the API); the owner moves their access to
        // Globex LLC, makes them an admin, then removes them from the firm.
        const globex = listed.body.organizations.find((x: { name: string }) => x.name === 'Globex LLC').id as string;
        const joiner = await owner('Joiner Books');
        const sent = await system.api('POST', '/accounting-firm/invite', {
          token: o.token,
          body: { email: joiner.email, role: 'accountant', firstName: 'Joan', lastName: 'Clarke', organizationIds: [acme] },
        });
        expect(sent.status, JSON.stringify(sent.body)).toBe(201);
        const link = /\/verify-invite\?token=([\w-]+)&kind=firm/.exec((await system.mailTo(joiner.email, /^Join .* on Ledgerline$/)).text ?? '')?.[1];
        // The firm keeps the names the member had when they joined.
        expect((await system.api('PATCH', '/users/me', { token: joiner.token, body: { firstName: 'Joan', middleName: 'M', lastName: 'Clarke' } })).status).toBe(
          200,
        );
        const accepted = await system.api('POST', '/accounting-firm/accept-invite/', { token: joiner.token, body: { token: link } });
        expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
        await page.reload();
        await visible(row(page, 'Firm members', joiner.email).getByRole('cell', { name: 'Acme Corp', exact: true }));
        await row(page, 'Firm members', joiner.email).getByRole('button', { name: 'Joan M Clarke', exact: true }).click();
        const access = page.getByRole('dialog', { name: 'Joan M Clarke' });
        await visible(access.getByRole('heading'));
        await dialogFits(page, 'firm-member');
        await access.getByRole('checkbox', { name: 'Acme Corp' }).uncheck();
        await access.getByRole('checkbox', { name: 'Globex LLC' }).check();
        await access.getByRole('button', { name: 'Save', exact: true }).click();
        await visible(notice(page, 'status', 'Access updated'));
        const afterAccess = await system.api('GET', '/accounting-firm/members', { token: o.token });
        expect(afterAccess.body.members.find((m: { email: string }) => m.email === joiner.email).organizations.map((x: { id: string }) => x.id)).toEqual([
          globex,
        ]);

        await rowAction(page, 'Joan M Clarke', 'Change role and access');
        await choose(page.getByRole('dialog', { name: 'Joan M Clarke' }), page, 'Role', 'Admin');
        await page.getByRole('dialog', { name: 'Joan M Clarke' }).getByRole('button', { name: 'Save', exact: true }).click();
        await visible(notice(page, 'status', 'Member updated'));
        await visible(row(page, 'Firm members', joiner.email).getByRole('cell', { name: 'Admin', exact: true }));

        await rowAction(page, 'Joan M Clarke', 'Remove from firm');
        await page.getByRole('dialog', { name: 'Remove Joan M Clarke from the firm?' }).getByRole('button', { name: 'Remove from firm' }).click();
        await visible(notice(page, 'status', 'Member removed'));
        await expect.poll(() => row(page, 'Firm members', joiner.email).count()).toBe(0);
      });
    },
    TEST_MS * 2,
  );

  it(
    'a firm user (user type firm) gets the firm profile area first',
    async () => {
      const o = await owner('Firm User Books');
      // Sign-up as a firm is another branch's: the user type is set where identity keeps it.
      await system.db.adminDb('users').where({ email: o.email }).update({ user_type: 'firm' });
      expect((await system.api('PATCH', '/accounting-firm', { token: o.token, body: { firmName: 'Counting House', country: 'GB' } })).status).toBe(200);
      await inFreshPage(browser, system.webUrl, async (page) => {
        await logInThroughForm(page, o.email, PASSWORD);
        await page.setViewportSize(PHONE);
        await openSettingsTab(page, 'firm-team-management');
        await visible(page.getByRole('tab', { name: 'Team Management', selected: true }));
        expect(await page.getByRole('tab').allInnerTexts()).toEqual([
          'Profile',
          'Firm Management',
          'Team Management',
          'Entities',
          'Organization members',
          'Audit Log',
          'Billing',
          'Security',
        ]);
        await visible(row(page, 'Firm members', o.email));
        await expectNoHorizontalScroll(page, "a firm user's settings at 390px");
        // The selected tab is scrolled into the tab row's view on a phone.
        await expectInsideWindow(page, page.getByRole('tab', { name: 'Team Management' }), 'the selected tab at 390px');
        await page.screenshot({ path: new URL('teams-firm-user-phone.png', SCREENSHOTS).pathname, fullPage: true });
      });
    },
    TEST_MS,
  );

  it(
    'a business user without a firm has no firm tabs; a firm link falls back to the profile',
    async () => {
      const o = await owner('Plain Co');
      await inFreshPage(browser, system.webUrl, async (page) => {
        await logInThroughForm(page, o.email, PASSWORD);
        await waitForPath(page, '/dashboard');
        await openSettingsTab(page, 'firm-management');
        await visible(page.getByRole('tab', { name: 'Profile', selected: true }));
        const tabs = await page.getByRole('tab').allInnerTexts();
        expect(tabs).toEqual(['Profile', 'Entities', 'Organization members', 'Audit Log', 'Billing', 'Security']);
        await page.getByRole('tab', { name: 'Audit Log' }).click();
        await visible(page.getByText('The audit log is not available yet.', { exact: false }));
      });
    },
    TEST_MS,
  );
});
