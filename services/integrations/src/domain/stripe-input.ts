// The rules of the Stripe routes' input: pure, no I/O. Messages name what the user must fix.

export const REDIRECT_URI_MAX = 2000;
export const STRIPE_SCOPES = ['read_only', 'read_write'] as const;

/** What is wrong with a redirect URI (undefined: nothing). */
export function redirectUriProblem(value: string): string | undefined {
  if (value.trim() === '') return 'redirectUri is required';
  if (value.length > REDIRECT_URI_MAX) return `redirectUri must be at most ${REDIRECT_URI_MAX} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'redirectUri must be an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'redirectUri must be an http or https URL';
  return undefined;
}

export function scopeProblem(value: string): string | undefined {
  if (value === '') return 'scope is required';
  if (!(STRIPE_SCOPES as readonly string[]).includes(value)) return 'scope must be read_only or read_write';
  return undefined;
}

export function codeProblem(value: string): string | undefined {
  if (value === '') return 'code is required';
  if (value.length > 255 || !/^ac_[A-Za-z0-9_-]+$/.test(value)) return 'code must be the authorization code Stripe returned (ac_...)';
  return undefined;
}
