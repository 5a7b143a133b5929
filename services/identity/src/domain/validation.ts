import { AppError, isUuid, type FieldError } from '@ledgerline/platform';
import { MSG, OWN } from './messages.js';

/**
 * Pure field rules. Each returns the first problem of a field; `collect` gathers the problems of a
 * request in field order and throws one 400 naming every bad field (nothing is changed).
 */
export type Rule = () => FieldError | undefined;

export function collect(...rules: Rule[]): void {
  const errors = rules.map((r) => r()).filter((e): e is FieldError => e !== undefined);
  if (errors.length > 0) throw AppError.invalid(errors);
}

// Deliberately simple: one @, a dot in the domain, no spaces; the code we email proves the address.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizeEmail(email: string | undefined): string {
  return (email ?? '').trim().toLowerCase();
}

export const rules = {
  email:
    (value: string | undefined, field = 'email'): Rule =>
    () => {
      const v = normalizeEmail(value);
      if (!v) return { field, message: MSG.emailEmpty };
      if (v.length > 254 || !EMAIL.test(v)) return { field, message: MSG.emailInvalid };
      return undefined;
    },
  /** A new password (sign-up, reset): 8+ characters with upper, lower and digit. */
  newPassword:
    (value: string | undefined, field = 'password', shortMessage: string = MSG.passwordShort): Rule =>
    () => {
      if (!value) return { field, message: OWN.passwordRequired };
      if (value.length < 8) return { field, message: shortMessage };
      if (value.length > 256) return { field, message: 'Password must be at most 256 characters' };
      if (!/[A-Z]/.test(value) || !/[a-z]/.test(value) || !/[0-9]/.test(value)) return { field, message: MSG.passwordComplexity };
      return undefined;
    },
  /** A password being checked (login): only presence, so old passwords still sign in. */
  presentPassword:
    (value: string | undefined, field = 'password', message: string = OWN.passwordRequired): Rule =>
    () =>
      value ? undefined : { field, message },
  confirm:
    (password: string | undefined, confirmation: string | undefined, field = 'confirmPassword'): Rule =>
    () =>
      confirmation !== undefined && confirmation !== password ? { field, message: MSG.passwordMatch } : undefined,
  required:
    (value: string | undefined, field: string, message: string): Rule =>
    () => {
      const v = (value ?? '').trim();
      if (!v) return { field, message };
      if (v.length > 100) return { field, message: `${field} ${OWN.nameTooLong}` };
      return undefined;
    },
  /** When present, must not be blank (partial updates). */
  optionalName:
    (value: string | undefined, field: string, message: string): Rule =>
    () => {
      if (value === undefined) return undefined;
      return rules.required(value, field, message)();
    },
  teamSize:
    (value: number | undefined, field = 'maxTeamSize'): Rule =>
    () => {
      if (value === undefined || value === null) return { field, message: MSG.teamSize };
      if (!Number.isInteger(value) || value < 1 || value > 100_000) return { field, message: OWN.teamSizeInvalid };
      return undefined;
    },
  phone:
    (value: string | undefined, field = 'phoneNumber'): Rule =>
    () => {
      const v = (value ?? '').trim();
      if (!/^\d*$/.test(v)) return { field, message: MSG.phoneDigits };
      if (v.length !== 10) return { field, message: MSG.phoneLength };
      return undefined;
    },
  uuid:
    (value: string | undefined, field: string, requiredMessage: string): Rule =>
    () => {
      if (!value) return { field, message: requiredMessage };
      if (!isUuid(value)) return { field, message: `${field} ${OWN.invalidId}` };
      return undefined;
    },
  code:
    (value: string | undefined, field = 'code'): Rule =>
    () => {
      const v = (value ?? '').trim();
      if (!v) return { field, message: OWN.codeRequired };
      if (!/^\d{6}$/.test(v)) return { field, message: OWN.codeFormat };
      return undefined;
    },
  present:
    (value: string | undefined, field: string, message: string): Rule =>
    () =>
      value ? undefined : { field, message },
};
