// A local stand-in for Google's OpenID Connect sign-in (accounts.google.com), enough for the product's "Continue with
// Google" button: the discovery document, the published signing keys (JWKS), and the authorization endpoint of the
// implicit flow (response_type=id_token, as Google's redirect mode answers a browser app) with a page where a person
// types the Google account to sign in as. ID tokens are RS256 JWTs with Google's claims (iss, aud, sub, email,
// email_verified, given_name, family_name, nonce, iat, exp), signed with jose — the library identity verifies them with.
// The signing key can be kept in a file so a restarted sandbox still vouches for tokens it issued (a real provider
// does not forget its keys).
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';

export interface OidcSandboxOptions {
  port?: number;
  host?: string;
  /** The issuer written in every token (default: the sandbox's own URL; Google's is https://accounts.google.com). */
  issuer?: string;
  /** Client ids the authorization endpoint accepts (Google refuses an unknown client). */
  clientIds: readonly string[];
  /** Where the signing key is kept across restarts (a JWK file); none: a new key each start. */
  keyFile?: string;
}

export interface GoogleAccount {
  email: string;
  givenName?: string;
  familyName?: string;
  /** Default true; false signs a token whose email Google has not verified. */
  emailVerified?: boolean;
}

export interface OidcSandbox {
  url: string;
  issuer: string;
  jwksUrl: string;
  authorizationUrl: string;
  /** An ID token for an account, as the authorization endpoint would issue it (for tests and scripts). */
  idToken(account: GoogleAccount, options: { audience: string; nonce?: string }): Promise<string>;
  close(): Promise<void>;
}

const AUTH_PATH = '/o/oauth2/v2/auth';
const JWKS_PATH = '/oauth2/v3/certs';
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,}$/;

/** The Google subject of an email in this sandbox: stable, so the same person signs in as the same user. */
export const subjectOf = (email: string): string =>
  (BigInt(`0x${createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 15)}`) + 100_000_000_000_000_000n).toString();

/** Loopback redirect targets only: this is a development provider, and a token must not leave the machine. */
function isLoopbackRedirect(uri: string): boolean {
  try {
    const u = new URL(uri);
    return (u.protocol === 'http:' || u.protocol === 'https:') && ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname);
  } catch {
    return false;
  }
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

type SigningKey = Awaited<ReturnType<typeof importJWK>>;

async function signingKey(file: string | undefined): Promise<{ privateKey: SigningKey; jwk: JWK }> {
  if (file) {
    try {
      const stored = JSON.parse(await readFile(file, 'utf8')) as { private: JWK; public: JWK };
      return { privateKey: await importJWK(stored.private, 'RS256'), jwk: stored.public };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = createHash('sha256')
    .update(JSON.stringify(await exportJWK(publicKey)))
    .digest('hex')
    .slice(0, 16);
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  if (file) await writeFile(file, JSON.stringify({ private: { ...(await exportJWK(privateKey)), kid, alg: 'RS256' }, public: jwk }), { mode: 0o600 });
  return { privateKey, jwk };
}

function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > 16_384) reject(new Error('form too large'));
    });
    req.on('end', () => resolve(new URLSearchParams(body)));
    req.on('error', reject);
  });
}

/** The account chooser: Google's page asks which account; here the person types it. */
function chooserPage(params: URLSearchParams, problem: string | null): string {
  const hidden = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'nonce']
    .map((k) => `<input type="hidden" name="${k}" value="${escape(params.get(k) ?? '')}">`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in with Google (sandbox)</title>
<style>body{font-family:system-ui,sans-serif;background:#f1f3f4;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{background:#fff;border-radius:8px;padding:32px;width:min(360px,calc(100vw - 48px));box-shadow:0 1px 3px rgba(0,0,0,.2)}
h1{font-size:22px;font-weight:500;margin:0 0 4px}p{color:#5f6368;margin:0 0 20px;font-size:14px}label{display:block;font-size:13px;color:#3c4043;margin:12px 0 4px}
input[type=email],input[type=text]{box-sizing:border-box;width:100%;padding:10px;border:1px solid #dadce0;border-radius:4px;font-size:15px}
button{margin-top:20px;background:#1a73e8;color:#fff;border:0;border-radius:4px;padding:10px 20px;font-size:14px;cursor:pointer}.problem{color:#d93025;font-size:13px;margin-top:8px}</style></head>
<body><main><h1>Sign in</h1><p>to continue to Ledgerline (Google sandbox: type any account)</p>
<form method="post" action="${AUTH_PATH}">${hidden}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" required value="${escape(params.get('login_hint') ?? '')}">
<label for="given_name">First name</label><input id="given_name" name="given_name" type="text">
<label for="family_name">Last name</label><input id="family_name" name="family_name" type="text">
${problem ? `<div class="problem" role="alert">${escape(problem)}</div>` : ''}
<button type="submit">Continue</button></form></main></body></html>`;
}

export async function startOidcSandbox(options: OidcSandboxOptions): Promise<OidcSandbox> {
  const { privateKey, jwk } = await signingKey(options.keyFile);
  const clientIds = new Set(options.clientIds);
  let url = '';
  let issuer = options.issuer ?? '';

  const sign = (account: GoogleAccount, audience: string, nonce?: string) =>
    new SignJWT({
      email: account.email.trim().toLowerCase(),
      email_verified: account.emailVerified ?? true,
      ...(account.givenName ? { given_name: account.givenName } : {}),
      ...(account.familyName ? { family_name: account.familyName } : {}),
      ...(nonce ? { nonce } : {}),
    })
      .setProtectedHeader({ alg: 'RS256', kid: jwk.kid!, typ: 'JWT' })
      .setIssuer(issuer)
      .setAudience(audience)
      .setSubject(subjectOf(account.email))
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);

  // Errors of the authorization request itself are shown, never redirected (OAuth 2.0 §4.1.2.1: a bad client or
  // redirect URI must not send the browser anywhere); the rest go back to the app in the fragment.
  const badRequest = (res: ServerResponse, message: string) => {
    res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(message);
  };
  const checkRequest = (p: URLSearchParams): string | null => {
    if (!clientIds.has(p.get('client_id') ?? '')) return 'Error 401: invalid_client (the OAuth client was not found)';
    if (!isLoopbackRedirect(p.get('redirect_uri') ?? '')) return 'Error 400: redirect_uri_mismatch (this sandbox sends tokens to this machine only)';
    return null;
  };
  const backToApp = (res: ServerResponse, p: URLSearchParams, answer: Record<string, string>) => {
    const fragment = new URLSearchParams({ ...answer, ...(p.get('state') ? { state: p.get('state')! } : {}) });
    res.writeHead(302, { location: `${p.get('redirect_uri')}#${fragment.toString()}`, 'cache-control': 'no-store' });
    res.end();
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const at = new URL(req.url ?? '/', 'http://sandbox');
      if (req.method === 'GET' && at.pathname === '/.well-known/openid-configuration') {
        res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
        res.end(
          JSON.stringify({
            issuer,
            authorization_endpoint: `${url}${AUTH_PATH}`,
            jwks_uri: `${url}${JWKS_PATH}`,
            response_types_supported: ['id_token'],
            subject_types_supported: ['public'],
            id_token_signing_alg_values_supported: ['RS256'],
            scopes_supported: ['openid', 'email', 'profile'],
            claims_supported: ['aud', 'email', 'email_verified', 'exp', 'family_name', 'given_name', 'iat', 'iss', 'nonce', 'sub'],
          }),
        );
        return;
      }
      if (req.method === 'GET' && at.pathname === JWKS_PATH) {
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'public, max-age=3600', 'access-control-allow-origin': '*' });
        res.end(JSON.stringify({ keys: [jwk] }));
        return;
      }
      if (at.pathname === AUTH_PATH && (req.method === 'GET' || req.method === 'POST')) {
        const p = req.method === 'GET' ? at.searchParams : await readForm(req);
        const refused = checkRequest(p);
        if (refused) return badRequest(res, refused);
        if (p.get('response_type') !== 'id_token') return backToApp(res, p, { error: 'unsupported_response_type' });
        if (!(p.get('scope') ?? '').split(' ').includes('openid')) return backToApp(res, p, { error: 'invalid_scope' });
        if (!p.get('nonce')) return backToApp(res, p, { error: 'invalid_request', error_description: 'nonce is required for response_type id_token' });
        if (req.method === 'GET') {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
          res.end(chooserPage(p, null));
          return;
        }
        const email = (p.get('email') ?? '').trim();
        if (!EMAIL.test(email)) {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
          res.end(chooserPage(p, 'Enter a valid email'));
          return;
        }
        const token = await sign(
          { email, givenName: p.get('given_name')?.trim() || undefined, familyName: p.get('family_name')?.trim() || undefined },
          p.get('client_id')!,
          p.get('nonce')!,
        );
        return backToApp(res, p, { id_token: token, token_type: 'Bearer', expires_in: '3600', scope: p.get('scope') ?? '' });
      }
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('Not found');
    })().catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  url = `http://${options.host ?? '127.0.0.1'}:${address.port}`;
  issuer ||= url;
  return {
    url,
    issuer,
    jwksUrl: `${url}${JWKS_PATH}`,
    authorizationUrl: `${url}${AUTH_PATH}`,
    idToken: (account, o) => sign(account, o.audience, o.nonce),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
