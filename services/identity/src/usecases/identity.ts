import { AppError, ErrorKind, EventType, newId, transactWithMail, writeEvent, type Knex } from '@ledgerline/platform';
import { MSG, OWN } from '../domain/messages.js';
import { EvenTiming } from '../domain/even-timing.js';
import { isLocked, lockAfterFailure, needsLoginCode, POLICY } from '../domain/policy.js';
import {
  codeHash,
  decoyToken,
  hashPassword,
  isDecoyToken,
  isDeviceToken,
  needsRehash,
  newOneTimeCode,
  newSecretToken,
  sameHash,
  tokenHash,
  verifyAgainstDummy,
  verifyPassword,
} from '../domain/secrets.js';
import { collect, normalizeEmail, rules } from '../domain/validation.js';
import { templates, type OutgoingMail } from '../mail/mailer.js';
import { actAs, codes, decoys, devices, oauthIdentities, resets, sessions, tenancy, throttle, users } from '../store/identity-store.js';
import { displayName, workspacesOfUser, writeMemberEvents } from '../store/member-events.js';
import type { ProfileJson, SessionRow, UserRow } from '../store/rows.js';
import type { IdentityDeps } from './context.js';
import { userView, workspaceView, type UserView, type WorkspaceView } from './views.js';

export const SOURCE = 'identity';

const sessionExpired = () => new AppError(ErrorKind.Unauthenticated, OWN.sessionExpired, { appErrorCode: 'SESSION_EXPIRED' });

export interface SignUpInput {
  firstName?: string;
  middleName?: string;
  lastName?: string;
  companyName?: string;
  maxTeamSize?: number;
  email?: string;
  password?: string;
  /** business (default) or firm (spec §3); a firm sign-up needs firmName and country. */
  userType?: string;
  firmName?: string;
  country?: string;
}

export interface OnboardInput {
  maxTeamSize?: number;
  companyName?: string;
  role?: string;
  phoneNumber?: string;
  city?: string;
  country?: string;
  heardAboutUs?: string;
}

export interface CodeChallenge {
  sessionToken: string;
  methodId: string;
  message: string;
}

export interface SignedIn {
  user: UserView;
  sessionToken: string;
}

export interface SecuritySettings {
  requireCodeAlways: boolean;
  trustedDevices: number;
}

export interface ResolvedSession {
  userId: string;
  sessionId: string;
  isOnboarded: boolean;
  userType: 'business' | 'firm';
  workspaces: WorkspaceView[];
  defaultWorkspaceId: string;
}

/** Writes a mail to the outbox inside the flow's transaction (sent by the mail job once it commits). */
export type MailWriter = (mail: OutgoingMail) => Promise<void>;

/** The identity use cases: each validates and runs one transaction; the mail it decides on is written in it. */
export class IdentityUseCases {
  /** Login, sign-up and forgot-password answer in the same time for known and unknown emails. */
  readonly timing: EvenTiming;

  constructor(private readonly deps: IdentityDeps) {
    this.timing = deps.timing ?? new EvenTiming();
  }

  private get deviceTrustMs(): number {
    return this.deps.config.LOGIN_CODE_TRUST_DAYS * 86_400_000;
  }

  now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  private get idleMs(): number {
    return this.deps.config.SESSION_IDLE_MINUTES * 60_000;
  }

  private get absoluteMs(): number {
    return this.deps.config.SESSION_ABSOLUTE_DAYS * 86_400_000;
  }

  /**
   * Runs `fn` in a transaction; the mail it writes goes to the mail outbox in that same transaction, so it
   * is sent if and only if the change commits, and survives a crash. The mail job is woken after the
   * commit: the answer never waits for SMTP (RELIABILITY 18: its timing must not say whether a mail went
   * out), and a failed send is retried by the job, never undoing the change.
   */
  async transact<T>(fn: (trx: Knex.Transaction, mail: MailWriter) => Promise<T>): Promise<T> {
    return transactWithMail(this.deps.db, this.deps.mailWritten, fn);
  }

  async view(trx: Knex.Transaction, user: UserRow, workspaceId?: string): Promise<UserView> {
    await actAs(trx, user.id, workspaceId);
    return userView(user, await tenancy.membershipsOf(trx, user.id), this.deps.config.SUPPORT_HASH_SECRET, workspaceId);
  }

  async startSession(trx: Knex.Transaction, userId: string, kind: 'pending' | 'active'): Promise<{ token: string; id: string }> {
    const token = newSecretToken();
    const id = await sessions.create(trx, {
      userId,
      tokenHash: tokenHash(token),
      kind,
      idleMs: kind === 'pending' ? POLICY.pendingSessionTtlMs : this.idleMs,
      absoluteMs: kind === 'pending' ? POLICY.pendingSessionTtlMs : this.absoluteMs,
      now: this.now(),
    });
    return { token, id };
  }

  /** A new code for a pending session; earlier open codes of that session stop working. */
  private async issueCode(trx: Knex.Transaction, sessionId: string, user: UserRow, mail: MailWriter): Promise<string> {
    await codes.supersedeOpen(trx, sessionId);
    const methodId = newId();
    const code = newOneTimeCode();
    await codes.create(trx, {
      id: methodId,
      session_id: sessionId,
      user_id: user.id,
      code_hash: codeHash(this.deps.config.OTP_PEPPER, methodId, code),
      expires_at: new Date(this.now().getTime() + POLICY.codeTtlMs),
    });
    await mail(templates.code(user.email, code));
    if (this.deps.config.NODE_ENV !== 'production') {
      this.deps.logger.info({ to: user.email, devCode: code, methodId }, 'one-time code issued (shown in development only)');
    }
    return methodId;
  }

  private async liveSession(trx: Knex.Transaction, token: string | undefined, kind: 'pending' | 'active'): Promise<SessionRow> {
    if (!token) throw sessionExpired();
    const s = await sessions.byTokenHash(trx, tokenHash(token));
    const now = this.now();
    if (!s || s.kind !== kind || s.revoked_at || s.idle_expires_at <= now || s.absolute_expires_at <= now) {
      throw kind === 'pending' ? new AppError(ErrorKind.Unauthenticated, OWN.loginAgain, { appErrorCode: 'LOGIN_ATTEMPT_EXPIRED' }) : sessionExpired();
    }
    return s;
  }

  async requireUser(trx: Knex.Transaction, token: string | undefined): Promise<{ session: SessionRow; user: UserRow }> {
    const session = await this.liveSession(trx, token, 'active');
    const user = await users.byId(trx, session.user_id);
    if (!user) throw sessionExpired();
    return { session, user };
  }

  async signUp(input: SignUpInput): Promise<CodeChallenge> {
    const userType = input.userType === undefined || input.userType === '' ? 'business' : input.userType;
    const firm = userType === 'firm';
    collect(
      () => (userType === 'business' || firm ? undefined : { field: 'userType', message: OWN.userTypeInvalid }),
      rules.required(input.firstName, 'firstName', MSG.firstName),
      rules.required(input.middleName, 'middleName', MSG.middleName),
      rules.required(input.lastName, 'lastName', MSG.lastName),
      // A firm's company is the firm: its name stands for the company name, and a team size is optional.
      firm ? () => undefined : rules.required(input.companyName, 'companyName', MSG.companyName),
      firm ? rules.required(input.firmName, 'firmName', OWN.firmNameRequired) : () => undefined,
      firm ? rules.required(input.country, 'country', OWN.countryRequired) : () => undefined,
      firm && input.maxTeamSize === undefined ? () => undefined : rules.teamSize(input.maxTeamSize),
      rules.email(input.email),
      rules.newPassword(input.password),
    );
    const email = normalizeEmail(input.email);
    return this.timing.run('signup', async () => {
      const passwordHash = await hashPassword(input.password ?? '');
      const created = await this.createAccount(input, email, passwordHash);
      if (created) return created;
      // The email has an account: answer exactly as for a new one and tell the owner by mail.
      // The decoy keeps a real attempt's state, so its codes lock and expire like real ones.
      const sessionToken = decoyToken(this.deps.config.OTP_PEPPER);
      const methodId = newId();
      const now = this.now();
      await this.transact(async (trx, mail) => {
        await mail(
          templates.accountExists(
            email,
            new URL('/login', this.deps.config.WEB_URL).toString(),
            new URL('/forgot-password', this.deps.config.WEB_URL).toString(),
          ),
        );
        await decoys.insert(trx, {
          token_hash: tokenHash(sessionToken),
          method_id: methodId,
          attempts: 0,
          sends: 1,
          last_sent_at: now,
          code_expires_at: new Date(now.getTime() + POLICY.codeTtlMs),
          expires_at: new Date(now.getTime() + POLICY.pendingSessionTtlMs),
        });
        await decoys.prune(trx, now);
      });
      return { sessionToken, methodId, message: OWN.signupDone };
    });
  }

  /** The new account and its pending session; undefined when the email already has an account. */
  private async createAccount(input: SignUpInput, email: string, passwordHash: string): Promise<CodeChallenge | undefined> {
    return this.transact(async (trx, mail) => {
      if (await users.byEmail(trx, email)) return undefined;
      const userId = newId();
      const firm = input.userType === 'firm';
      const firmName = (input.firmName ?? '').trim();
      const companyName = firm ? firmName : (input.companyName ?? '').trim();
      const profile: ProfileJson = firm
        ? { companyName, firmName, country: (input.country ?? '').trim(), ...(input.maxTeamSize !== undefined ? { maxTeamSize: input.maxTeamSize } : {}) }
        : { companyName, maxTeamSize: input.maxTeamSize };
      const user: UserRow = {
        id: userId,
        email,
        first_name: (input.firstName ?? '').trim(),
        middle_name: (input.middleName ?? '').trim(),
        last_name: (input.lastName ?? '').trim(),
        password_hash: passwordHash,
        is_verified: false,
        user_type: firm ? 'firm' : 'business',
        is_onboarded: false,
        profile,
        consecutive_failures: 0,
        locked_until: null,
        last_code_verified_at: null,
      };
      try {
        await users.insert(trx, user);
      } catch (err) {
        // Two sign-ups with one email at the same moment: the unique index decides.
        if ((err as { code?: string }).code === '23505') return undefined;
        throw err;
      }
      if (firm) {
        // A firm user has no business workspace of their own (spec §2: they work in their clients' organizations).
        // The firm itself is the firm service's: the gateway ensures it, keyed by this user's id, when they sign in
        // (services/firm/README.md "Sign-up as a firm"); its name and country wait here, in the profile, until then.
        const pending = await this.startSession(trx, userId, 'pending');
        const methodId = await this.issueCode(trx, pending.id, user, mail);
        return { sessionToken: pending.token, methodId, message: OWN.signupDone };
      }
      const organizationId = newId();
      const workspaceId = newId();
      await actAs(trx, userId, workspaceId);
      await tenancy.createOrganization(trx, { organizationId, workspaceId, ownerUserId: userId, name: companyName, type: 'business' });
      await writeEvent(trx, SOURCE, {
        type: EventType.UserSignedUp,
        workspaceId,
        payload: { userId, email, organizationId, workspaceId, method: 'password', userType: 'business' },
      });
      await writeEvent(trx, SOURCE, {
        type: EventType.WorkspaceCreated,
        workspaceId,
        payload: { workspaceId, organizationId, name: companyName, ownerUserId: userId, isDefault: true },
      });
      await writeMemberEvents(trx, userId, [workspaceId]);
      const pending = await this.startSession(trx, userId, 'pending');
      const methodId = await this.issueCode(trx, pending.id, user, mail);
      return { sessionToken: pending.token, methodId, message: OWN.signupDone };
    });
  }

  async login(input: { email?: string; password?: string; deviceToken?: string }): Promise<SignedIn | CodeChallenge> {
    collect(rules.email(input.email), rules.presentPassword(input.password));
    const email = normalizeEmail(input.email);
    const password = input.password ?? '';
    const loginFailed = () => new AppError(ErrorKind.Unauthenticated, OWN.loginFailed, { appErrorCode: 'INVALID_CREDENTIALS' });
    // Throttling is keyed by the address typed, so an unknown email is locked exactly like a known one.
    const emailKey = tokenHash(`login:${email}`);
    return this.timing.run('login', async () => {
      const now = this.now();
      const guard = await throttle.get(this.deps.db, emailKey);
      const history = {
        consecutiveFailures: guard?.consecutive_failures ?? 0,
        lockedUntil: guard?.locked_until ?? null,
        failuresLastHour: await throttle.failuresSince(this.deps.db, emailKey, new Date(now.getTime() - 3_600_000)),
      };
      const user = await users.byEmail(this.deps.db, email);
      // The password is checked (or a dummy of equal cost) on every branch, locked or not.
      const passwordOk = user?.password_hash ? await verifyPassword(user.password_hash, password) : (await verifyAgainstDummy(password), false);
      if (isLocked(history, now)) throw new AppError(ErrorKind.RateLimited, OWN.accountLocked, { appErrorCode: 'ACCOUNT_LOCKED' });
      if (!user || !passwordOk) {
        await this.deps.db.transaction(async (trx) => {
          const failures = await throttle.recordFailure(trx, emailKey, now);
          const lock = lockAfterFailure(failures, now);
          if (lock) await throttle.lock(trx, emailKey, lock);
          await throttle.prune(trx, now);
        });
        throw loginFailed();
      }
      const upgraded = user.password_hash && needsRehash(user.password_hash) ? await hashPassword(password) : undefined;
      return this.transact(async (trx, mail) => {
        if (guard) await throttle.clear(trx, emailKey);
        await users.update(trx, user.id, { consecutive_failures: 0, locked_until: null, ...(upgraded ? { password_hash: upgraded } : {}) });
        const deviceTrusted = isDeviceToken(input.deviceToken) && (await devices.isTrusted(trx, user.id, tokenHash(input.deviceToken), now));
        if (needsLoginCode({ isVerified: user.is_verified, requireCodeAlways: Boolean(user.require_code_always), deviceTrusted })) {
          const pending = await this.startSession(trx, user.id, 'pending');
          const methodId = await this.issueCode(trx, pending.id, user, mail);
          return { sessionToken: pending.token, methodId, message: OWN.codeSent };
        }
        const active = await this.startSession(trx, user.id, 'active');
        return { user: await this.view(trx, user), sessionToken: active.token };
      });
    });
  }

  async authenticateOtp(input: { methodId?: string; code?: string; sessionToken?: string; deviceToken?: string }): Promise<SignedIn & { deviceToken: string }> {
    collect(
      rules.uuid(input.methodId, 'methodId', OWN.methodIdRequired),
      rules.code(input.code),
      rules.present(input.sessionToken, 'sessionToken', OWN.sessionTokenRequired),
    );
    const wrong = (message: string, appErrorCode: string) =>
      new AppError(ErrorKind.InvalidInput, message, { appErrorCode, fields: [{ field: 'code', message }] });
    // The answer of a sign-up for a taken email: every code is wrong, and the attempt expires and locks
    // after as many tries as a real one (its state is in decoy_challenges).
    if (isDecoyToken(this.deps.config.OTP_PEPPER, input.sessionToken)) {
      const key = tokenHash(input.sessionToken!);
      const error = await this.deps.db.transaction(async (trx) => {
        const row = await decoys.lock(trx, key);
        const now = this.now();
        if (!row || row.expires_at <= now) return new AppError(ErrorKind.Unauthenticated, OWN.loginAgain, { appErrorCode: 'LOGIN_ATTEMPT_EXPIRED' });
        if (row.method_id !== input.methodId) return wrong(OWN.codeWrong, 'CODE_INVALID');
        if (row.code_expires_at <= now) return wrong(OWN.codeExpired, 'CODE_EXPIRED');
        if (row.attempts >= POLICY.codeMaxAttempts) return wrong(OWN.codeTooManyTries, 'CODE_TOO_MANY_TRIES');
        await decoys.addAttempt(trx, key);
        return row.attempts + 1 >= POLICY.codeMaxAttempts ? wrong(OWN.codeTooManyTries, 'CODE_TOO_MANY_TRIES') : wrong(OWN.codeWrong, 'CODE_INVALID');
      });
      throw error;
    }
    // Wrong-code attempts must be counted even though the request fails, so they commit on their own.
    const outcome = await this.deps.db.transaction(async (trx) => {
      const pending = await this.liveSession(trx, input.sessionToken, 'pending');
      const row = await codes.byId(trx, input.methodId ?? '');
      // The code is bound to the sign-in attempt that created it.
      if (!row || row.session_id !== pending.id) return { error: wrong(OWN.codeWrong, 'CODE_INVALID') };
      if (row.consumed_at || row.superseded_at || row.expires_at <= this.now()) return { error: wrong(OWN.codeExpired, 'CODE_EXPIRED') };
      if (row.attempts >= POLICY.codeMaxAttempts) return { error: wrong(OWN.codeTooManyTries, 'CODE_TOO_MANY_TRIES') };
      if (!sameHash(row.code_hash, codeHash(this.deps.config.OTP_PEPPER, row.id, (input.code ?? '').trim()))) {
        await codes.addAttempt(trx, row.id);
        return {
          error: wrong(
            row.attempts + 1 >= POLICY.codeMaxAttempts ? OWN.codeTooManyTries : OWN.codeWrong,
            row.attempts + 1 >= POLICY.codeMaxAttempts ? 'CODE_TOO_MANY_TRIES' : 'CODE_INVALID',
          ),
        };
      }
      await codes.consume(trx, row.id);
      await sessions.revoke(trx, pending.id);
      await users.update(trx, row.user_id, { is_verified: true, last_code_verified_at: this.now() });
      const user = await users.byId(trx, row.user_id);
      if (!user) throw sessionExpired();
      // This browser is now trusted for this user (decision 0006); its token is kept if it had one.
      const deviceToken = isDeviceToken(input.deviceToken) ? input.deviceToken : newSecretToken();
      await devices.trust(trx, { userId: user.id, tokenHash: tokenHash(deviceToken), now: this.now(), ttlMs: this.deviceTrustMs });
      // A fresh token for the signed-in session: the pending token never becomes a session token.
      const active = await this.startSession(trx, user.id, 'active');
      return { signedIn: { user: await this.view(trx, user), sessionToken: active.token, deviceToken } };
    });
    if ('error' in outcome && outcome.error) throw outcome.error;
    return (outcome as { signedIn: SignedIn & { deviceToken: string } }).signedIn;
  }

  async resendOtp(input: { email?: string; sessionToken?: string }): Promise<{ methodId: string; message: string }> {
    collect(rules.email(input.email), rules.present(input.sessionToken, 'sessionToken', OWN.sessionTokenRequired));
    if (isDecoyToken(this.deps.config.OTP_PEPPER, input.sessionToken)) {
      const key = tokenHash(input.sessionToken!);
      return this.deps.db.transaction(async (trx) => {
        const row = await decoys.lock(trx, key);
        const now = this.now();
        if (!row || row.expires_at <= now) throw new AppError(ErrorKind.Unauthenticated, OWN.loginAgain, { appErrorCode: 'LOGIN_ATTEMPT_EXPIRED' });
        if (row.sends >= POLICY.codeMaxSendsPerAttempt) throw new AppError(ErrorKind.RateLimited, OWN.codeResendLimit, { appErrorCode: 'CODE_RESEND_LIMIT' });
        if (now.getTime() - row.last_sent_at.getTime() < this.deps.config.OTP_RESEND_SECONDS * 1000)
          throw new AppError(ErrorKind.RateLimited, OWN.codeResendTooSoon, { appErrorCode: 'CODE_RESEND_TOO_SOON' });
        const methodId = newId();
        await decoys.resend(trx, key, methodId, now, new Date(now.getTime() + POLICY.codeTtlMs));
        return { methodId, message: OWN.codeSent };
      });
    }
    return this.transact(async (trx, mail) => {
      const pending = await this.liveSession(trx, input.sessionToken, 'pending');
      const user = await users.byId(trx, pending.user_id);
      if (!user || user.email !== normalizeEmail(input.email))
        throw new AppError(ErrorKind.Unauthenticated, OWN.loginAgain, { appErrorCode: 'LOGIN_ATTEMPT_EXPIRED' });
      const sent = await codes.ofSession(trx, pending.id);
      if (sent.length >= POLICY.codeMaxSendsPerAttempt) throw new AppError(ErrorKind.RateLimited, OWN.codeResendLimit, { appErrorCode: 'CODE_RESEND_LIMIT' });
      const last = sent[0];
      if (last && this.now().getTime() - last.created_at.getTime() < this.deps.config.OTP_RESEND_SECONDS * 1000) {
        throw new AppError(ErrorKind.RateLimited, OWN.codeResendTooSoon, { appErrorCode: 'CODE_RESEND_TOO_SOON' });
      }
      const methodId = await this.issueCode(trx, pending.id, user, mail);
      return { methodId, message: OWN.codeSent };
    });
  }

  /** Google sign-in and sign-up: both sign in an existing user and create a new one otherwise. */
  async oauth(input: { token?: string; companyName?: string; maxTeamSize?: number }): Promise<SignedIn & { userCreated: boolean }> {
    collect(rules.present(input.token, 'token', OWN.oauthTokenRequired));
    const google = await this.deps.google.verify(input.token ?? '');
    return this.transact(async (trx) => {
      const linked = await oauthIdentities.find(trx, 'google', google.subject);
      let user = linked ? await users.byId(trx, linked.user_id) : await users.byEmail(trx, google.email);
      let userCreated = false;
      if (!user) {
        userCreated = true;
        const userId = newId();
        const companyName = (input.companyName ?? '').trim() || `${google.firstName || google.email.split('@')[0]}'s company`;
        user = {
          id: userId,
          email: google.email,
          first_name: google.firstName,
          middle_name: '',
          last_name: google.lastName,
          password_hash: null,
          is_verified: true,
          user_type: 'business',
          is_onboarded: false,
          profile: { companyName, ...(input.maxTeamSize ? { maxTeamSize: input.maxTeamSize } : {}) },
          consecutive_failures: 0,
          locked_until: null,
          last_code_verified_at: null,
        };
        await users.insert(trx, user);
        const organizationId = newId();
        const workspaceId = newId();
        await actAs(trx, userId, workspaceId);
        await tenancy.createOrganization(trx, { organizationId, workspaceId, ownerUserId: userId, name: companyName, type: 'business' });
        await writeEvent(trx, SOURCE, {
          type: EventType.UserSignedUp,
          workspaceId,
          payload: { userId, email: google.email, organizationId, workspaceId, method: 'google', userType: 'business' },
        });
        await writeEvent(trx, SOURCE, {
          type: EventType.WorkspaceCreated,
          workspaceId,
          payload: { workspaceId, organizationId, name: companyName, ownerUserId: userId, isDefault: true },
        });
        await writeMemberEvents(trx, userId, [workspaceId]);
      } else if (!user.is_verified) {
        // Google vouched for the address.
        await users.update(trx, user.id, { is_verified: true });
        user = { ...user, is_verified: true };
      }
      await oauthIdentities.link(trx, 'google', google.subject, user.id);
      const active = await this.startSession(trx, user.id, 'active');
      return { user: await this.view(trx, user), sessionToken: active.token, userCreated };
    });
  }

  async forgotPassword(input: { email?: string }): Promise<{ message: string }> {
    collect(rules.email(input.email));
    // The mail is written with the reset link and leaves after the answer; both branches are held to the same time.
    await this.timing.run('forgot-password', () =>
      this.transact(async (trx, mail) => {
        const user = await users.byEmail(trx, normalizeEmail(input.email));
        if (!user) return;
        await resets.expireOpen(trx, user.id);
        const token = newSecretToken();
        await resets.create(trx, {
          id: newId(),
          user_id: user.id,
          token_hash: tokenHash(token),
          expires_at: new Date(this.now().getTime() + POLICY.resetTokenTtlMs),
        });
        const link = new URL('/reset-password', this.deps.config.WEB_URL);
        link.searchParams.set('token', token);
        await mail(templates.reset(user.email, link.toString()));
      }),
    );
    // The same answer whether or not the account exists.
    return { message: OWN.resetSent };
  }

  async resetPassword(input: { token?: string; password?: string; confirmPassword?: string }): Promise<SignedIn & { message: string }> {
    collect(
      rules.present(input.token, 'token', OWN.resetTokenRequired),
      rules.newPassword(input.password),
      rules.confirm(input.password, input.confirmPassword),
    );
    const passwordHash = await hashPassword(input.password ?? '');
    return this.transact(async (trx, mail) => {
      const reset = await resets.byTokenHash(trx, tokenHash(input.token ?? ''));
      if (!reset || reset.used_at || reset.expires_at <= this.now()) {
        throw new AppError(ErrorKind.InvalidInput, OWN.resetTokenInvalid, {
          appErrorCode: 'RESET_TOKEN_INVALID',
          fields: [{ field: 'token', message: OWN.resetTokenInvalid }],
        });
      }
      await resets.use(trx, reset.id);
      // The link proved the address; a reset ends every other session (RELIABILITY 17).
      await users.update(trx, reset.user_id, {
        password_hash: passwordHash,
        is_verified: true,
        last_code_verified_at: this.now(),
        consecutive_failures: 0,
        locked_until: null,
      });
      await sessions.revokeAllOf(trx, reset.user_id);
      // A reset may follow a stolen password: every device proves the mailbox again.
      await devices.forgetAll(trx, reset.user_id);
      const user = await users.byId(trx, reset.user_id);
      if (!user) throw new AppError(ErrorKind.InvalidInput, OWN.resetTokenInvalid, { appErrorCode: 'RESET_TOKEN_INVALID' });
      await mail(templates.passwordChanged(user.email));
      const active = await this.startSession(trx, user.id, 'active');
      return { user: await this.view(trx, user), sessionToken: active.token, message: MSG.passwordSet };
    });
  }

  /** Sets a first password (accounts made through Google or an invite) and, optionally, names. */
  async updateCredentials(
    token: string,
    input: { password?: string; confirmPassword?: string; firstName?: string; middleName?: string; lastName?: string },
  ): Promise<{ user: UserView; message: string }> {
    collect(
      rules.newPassword(input.password, 'password', MSG.passwordShortChange),
      rules.confirm(input.password, input.confirmPassword),
      rules.optionalName(input.firstName, 'firstName', MSG.firstName),
      rules.optionalName(input.middleName, 'middleName', MSG.middleName),
      rules.optionalName(input.lastName, 'lastName', MSG.lastName),
    );
    const passwordHash = await hashPassword(input.password ?? '');
    return this.transact(async (trx, mail) => {
      const { user } = await this.requireUser(trx, token);
      if (user.password_hash) throw new AppError(ErrorKind.FailedPrecondition, OWN.passwordAlreadySet, { appErrorCode: 'PASSWORD_ALREADY_SET' });
      await users.update(trx, user.id, {
        password_hash: passwordHash,
        ...(input.firstName !== undefined ? { first_name: input.firstName.trim() } : {}),
        ...(input.middleName !== undefined ? { middle_name: input.middleName.trim() } : {}),
        ...(input.lastName !== undefined ? { last_name: input.lastName.trim() } : {}),
      });
      await mail(templates.passwordChanged(user.email));
      if (input.firstName !== undefined || input.lastName !== undefined) await this.publishNameChange(trx, user.id);
      const updated = await users.byId(trx, user.id);
      return { user: await this.view(trx, updated ?? user), message: MSG.passwordSet };
    });
  }

  async updatePassword(
    token: string,
    input: { existingPassword?: string; newPassword?: string; endOtherSessions?: boolean },
  ): Promise<{ message: string; endedSessions: number }> {
    collect(
      rules.presentPassword(input.existingPassword, 'existingPassword', OWN.existingPasswordRequired),
      rules.newPassword(input.newPassword, 'newPassword', MSG.passwordShortChange),
    );
    const { session, user } = await this.deps.db.transaction((trx) => this.requireUser(trx, token));
    if (!user.password_hash || !(await verifyPassword(user.password_hash, input.existingPassword ?? ''))) {
      throw new AppError(ErrorKind.InvalidInput, OWN.existingPasswordWrong, {
        appErrorCode: 'EXISTING_PASSWORD_WRONG',
        fields: [{ field: 'existingPassword', message: OWN.existingPasswordWrong }],
      });
    }
    const passwordHash = await hashPassword(input.newPassword ?? '');
    return this.transact(async (trx, mail) => {
      await users.update(trx, user.id, { password_hash: passwordHash });
      const endedSessions = input.endOtherSessions ? await sessions.revokeAllOf(trx, user.id, session.id) : 0;
      await mail(templates.passwordChanged(user.email));
      return { message: OWN.passwordUpdated, endedSessions };
    });
  }

  async logout(token: string): Promise<{ message: string }> {
    await this.deps.db.transaction(async (trx) => {
      const s = token ? await sessions.byTokenHash(trx, tokenHash(token)) : undefined;
      if (s) await sessions.revoke(trx, s.id);
    });
    return { message: OWN.loggedOut };
  }

  async onboard(token: string, input: OnboardInput): Promise<UserView> {
    collect(
      rules.required(input.companyName, 'companyName', MSG.companyName),
      rules.teamSize(input.maxTeamSize),
      rules.phone(input.phoneNumber),
      rules.required(input.city, 'city', OWN.cityRequired),
      rules.required(input.country, 'country', OWN.countryRequired),
      rules.required(input.heardAboutUs, 'heardAboutUs', MSG.heardAboutUs),
    );
    return this.transact(async (trx) => {
      const { user } = await this.requireUser(trx, token);
      const profile: ProfileJson = {
        maxTeamSize: input.maxTeamSize,
        companyName: (input.companyName ?? '').trim(),
        role: (input.role ?? '').trim(),
        phoneNumber: (input.phoneNumber ?? '').trim(),
        city: (input.city ?? '').trim(),
        country: (input.country ?? '').trim(),
        heardAboutUs: (input.heardAboutUs ?? '').trim(),
        // A firm owner's company is their firm: the name they confirm here is the firm's (the gateway renames the firm).
        ...(user.profile?.firmName ? { firmName: (input.companyName ?? '').trim() } : {}),
        ...(user.profile?.firmInviteId ? { firmInviteId: user.profile.firmInviteId } : {}),
      };
      await users.update(trx, user.id, { is_onboarded: true, profile });
      if (profile.companyName && profile.companyName !== user.profile?.companyName) await tenancy.renameOwnedDefault(trx, user.id, profile.companyName);
      const updated = await users.byId(trx, user.id);
      return this.view(trx, updated ?? user);
    });
  }

  async me(token: string, workspaceId?: string): Promise<UserView> {
    return this.deps.db.transaction(async (trx) => {
      const { user } = await this.requireUser(trx, token);
      return this.view(trx, user, workspaceId);
    });
  }

  async updateMe(token: string, input: { firstName?: string; middleName?: string; lastName?: string }, workspaceId?: string): Promise<UserView> {
    collect(
      rules.optionalName(input.firstName, 'firstName', MSG.firstName),
      rules.optionalName(input.middleName, 'middleName', MSG.middleName),
      rules.optionalName(input.lastName, 'lastName', MSG.lastName),
    );
    return this.deps.db.transaction(async (trx) => {
      const { user } = await this.requireUser(trx, token);
      await users.update(trx, user.id, {
        ...(input.firstName !== undefined ? { first_name: input.firstName.trim() } : {}),
        ...(input.middleName !== undefined ? { middle_name: input.middleName.trim() } : {}),
        ...(input.lastName !== undefined ? { last_name: input.lastName.trim() } : {}),
      });
      const updated = await users.byId(trx, user.id);
      if (updated && displayName(updated) !== displayName(user)) await this.publishNameChange(trx, user.id);
      return this.view(trx, updated ?? user, workspaceId);
    });
  }

  /** A user's name changed: every workspace they reach hears it (member.changed, decision 0036). */
  private async publishNameChange(trx: Knex.Transaction, userId: string): Promise<void> {
    await actAs(trx, userId);
    await writeMemberEvents(trx, userId, await workspacesOfUser(trx, userId));
  }

  /** Bearer token → user and memberships, for the gateway; refreshes the idle expiry now and then. */
  async resolve(token: string): Promise<ResolvedSession> {
    return this.deps.db.transaction(async (trx) => {
      const { session, user } = await this.requireUser(trx, token);
      if (this.now().getTime() - session.last_seen_at.getTime() > POLICY.touchEveryMs) await sessions.touch(trx, session.id, this.idleMs, this.now());
      await actAs(trx, user.id);
      const workspaces = (await tenancy.membershipsOf(trx, user.id)).map(workspaceView);
      return {
        userId: user.id,
        sessionId: session.id,
        isOnboarded: user.is_onboarded,
        userType: user.user_type,
        workspaces,
        defaultWorkspaceId: workspaces[0]?.id ?? '',
      };
    });
  }

  async securitySettings(token: string): Promise<SecuritySettings> {
    return this.deps.db.transaction(async (trx) => {
      const { user } = await this.requireUser(trx, token);
      return { requireCodeAlways: Boolean(user.require_code_always), trustedDevices: await devices.countTrusted(trx, user.id, this.now()) };
    });
  }

  async updateSecuritySettings(token: string, input: { requireCodeAlways?: boolean }): Promise<SecuritySettings> {
    return this.deps.db.transaction(async (trx) => {
      const { user } = await this.requireUser(trx, token);
      if (input.requireCodeAlways !== undefined) await users.update(trx, user.id, { require_code_always: input.requireCodeAlways });
      const updated = await users.byId(trx, user.id);
      return { requireCodeAlways: Boolean(updated?.require_code_always), trustedDevices: await devices.countTrusted(trx, user.id, this.now()) };
    });
  }
}
