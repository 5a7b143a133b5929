import type { KeyValueStorage } from './store';

/**
 * The browser's device token (decision 0006): answered by /authenticate-otp, sent with every /login and
 * code check so a browser that passed a code check skips the code for 30 days. It is a device
 * credential, not session data: logout and the session-expired clean-up leave it in place.
 */
export const DEVICE_STORAGE_KEY = 'ledgerline.device';

const browserStorage = (): KeyValueStorage | undefined => (typeof localStorage === 'undefined' ? undefined : localStorage);

export function readDeviceToken(storage: KeyValueStorage | undefined = browserStorage()): string | undefined {
  try {
    return storage?.getItem(DEVICE_STORAGE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

export function rememberDeviceToken(token: string | undefined, storage: KeyValueStorage | undefined = browserStorage()): void {
  if (!token) return;
  try {
    storage?.setItem(DEVICE_STORAGE_KEY, token);
  } catch {
    // Storage blocked: the next sign-in asks for a code again, nothing worse.
  }
}
