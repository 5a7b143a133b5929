/** Limits of the sign-in flows, in one place (RELIABILITY 16–19). */
export const POLICY = {
  codeTtlMs: 10 * 60_000,
  codeMaxAttempts: 5,
  codeMaxSendsPerAttempt: 5,
  pendingSessionTtlMs: 30 * 60_000,
  resetTokenTtlMs: 30 * 60_000,
  /** Consecutive failures that lock an account for `lockMs`. */
  lockAfterFailures: 10,
  lockMs: 15 * 60_000,
  /** Failed logins evaluated per account per hour, at most. */
  maxFailuresPerHour: 100,
  /** Idle-expiry refresh is written at most this often per session. */
  touchEveryMs: 60_000,
} as const;

export interface LoginHistory {
  consecutiveFailures: number;
  failuresLastHour: number;
  lockedUntil: Date | null;
}

export function isLocked(history: LoginHistory, now: Date): boolean {
  if (history.lockedUntil && history.lockedUntil > now) return true;
  return history.failuresLastHour >= POLICY.maxFailuresPerHour;
}

/** After one more failure: the lock to set, if any. */
export function lockAfterFailure(consecutiveFailures: number, now: Date): Date | null {
  return consecutiveFailures >= POLICY.lockAfterFailures ? new Date(now.getTime() + POLICY.lockMs) : null;
}

/**
 * Whether a password sign-in must be confirmed with an emailed code: an unverified address, a user who
 * asked for the code every time, or a browser that has not passed a code check for this user within the
 * trust window (decision 0006).
 */
export function needsLoginCode(user: { isVerified: boolean; requireCodeAlways: boolean; deviceTrusted: boolean }): boolean {
  return !user.isVerified || user.requireCodeAlways || !user.deviceTrusted;
}
