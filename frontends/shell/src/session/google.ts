// "Continue with Google" (spec platform-core §7 /login-oauth and /signup-oauth): the OpenID Connect implicit flow a
// browser app runs with Google (response_type=id_token, as Google's redirect mode answers). The app goes to Google's
// authorization endpoint with a fresh state and nonce kept in this tab's session storage, Google sends it back to
// /oauth/google with the ID token in the fragment, and the app checks the state and nonce before handing the token to
// the gateway, where identity verifies its signature, issuer, audience and expiry. The token never reaches a server
// log: a fragment is not sent with the request.
import type { GoogleWebConfig } from '../config';

export const GOOGLE_CALLBACK_ROUTE = '/oauth/google';
const PENDING_KEY = 'ledgerline.google-sign-in';
/** How long a started sign-in may take at Google before its answer is refused. */
export const GOOGLE_SIGN_IN_TTL_MS = 10 * 60_000;

export type GoogleMode = 'login' | 'signup';

export interface PendingGoogleSignIn {
  state: string;
  nonce: string;
  mode: GoogleMode;
  /** The page to open afterwards (already checked by safeNext), or null for home. */
  next: string | null;
  startedAt: number;
}

export type GoogleAnswer = { kind: 'token'; idToken: string; pending: PendingGoogleSignIn } | { kind: 'refused'; message: string };

export const GOOGLE_CANCELLED_MESSAGE = 'Google sign-in was cancelled. Try again, or sign in with your email and password.';
export const GOOGLE_EXPIRED_MESSAGE = 'This Google sign-in is no longer valid. Start again from the sign-in page.';

const random = (): string => {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
};

/** Google's authorization URL for this tab, with the pending sign-in remembered in `storage`. */
export function startGoogleSignIn(
  config: GoogleWebConfig,
  intent: { mode: GoogleMode; next: string | null },
  origin: string,
  storage: Pick<Storage, 'setItem'>,
  now = Date.now(),
): string {
  const pending: PendingGoogleSignIn = { state: random(), nonce: random(), mode: intent.mode, next: intent.next, startedAt: now };
  storage.setItem(PENDING_KEY, JSON.stringify(pending));
  const url = new URL(config.authorizationUrl);
  url.search = new URLSearchParams({
    client_id: config.clientId,
    redirect_uri: `${origin}${GOOGLE_CALLBACK_ROUTE}`,
    response_type: 'id_token',
    scope: 'openid email profile',
    state: pending.state,
    nonce: pending.nonce,
    prompt: 'select_account',
  }).toString();
  return url.toString();
}

/** The pending sign-in of this tab, taken out of storage (one answer per start). */
export function takePendingGoogleSignIn(storage: Pick<Storage, 'getItem' | 'removeItem'>): PendingGoogleSignIn | null {
  const raw = storage.getItem(PENDING_KEY);
  storage.removeItem(PENDING_KEY);
  if (!raw) return null;
  try {
    const p = JSON.parse(raw) as Partial<PendingGoogleSignIn>;
    if (typeof p.state !== 'string' || typeof p.nonce !== 'string' || (p.mode !== 'login' && p.mode !== 'signup') || typeof p.startedAt !== 'number')
      return null;
    return { state: p.state, nonce: p.nonce, mode: p.mode, next: typeof p.next === 'string' ? p.next : null, startedAt: p.startedAt };
  } catch {
    return null;
  }
}

/** The nonce claim of an ID token (read, not verified: identity verifies the signature). */
function nonceOf(idToken: string): string | null {
  const payload = idToken.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(
      payload
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(payload.length / 4) * 4, '='),
    );
    const claims = JSON.parse(json) as { nonce?: unknown };
    return typeof claims.nonce === 'string' ? claims.nonce : null;
  } catch {
    return null;
  }
}

/**
 * Google's answer in the callback's fragment, checked against the pending sign-in: the same state (the answer is to
 * this tab's request, not one forged by another site), the same nonce in the token (not a replayed token), in time.
 */
export function readGoogleAnswer(hash: string, pending: PendingGoogleSignIn | null, now = Date.now()): GoogleAnswer {
  const answer = new URLSearchParams(hash.replace(/^#/, ''));
  if (!pending || answer.get('state') !== pending.state || now - pending.startedAt > GOOGLE_SIGN_IN_TTL_MS) {
    return { kind: 'refused', message: GOOGLE_EXPIRED_MESSAGE };
  }
  if (answer.get('error')) return { kind: 'refused', message: GOOGLE_CANCELLED_MESSAGE };
  const idToken = answer.get('id_token');
  if (!idToken || nonceOf(idToken) !== pending.nonce) return { kind: 'refused', message: GOOGLE_EXPIRED_MESSAGE };
  return { kind: 'token', idToken, pending };
}
