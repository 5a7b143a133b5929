// Client-side checks with the spec's messages (§5), verbatim where the spec gives them.
import type { ReferralSource } from './types';

export const validationMessages = {
  emailEmpty: 'Email cannot be empty',
  emailInvalid: 'Please enter a valid email',
  passwordShort: 'Must be 8 or more characters',
  /** The spec's second message set, used where a signed-in user changes or sets a password (as identity does). */
  passwordShortChange: 'Password must have atleast 8 characters',
  passwordComplexity: 'Must contain at least one uppercase letter, one lowercase letter, and one number',
  passwordMismatch: 'Password must match',
  firstName: 'First Name is required',
  middleName: 'Middle Name is required',
  lastName: 'Last Name is required',
  companyName: 'Company name is required',
  teamSize: 'Team size field is required',
  teamSizeInvalid: 'Team size must be a whole number from 1 to 100000',
  phoneLength: 'Phone number must be 10 digits',
  phoneDigits: 'Phone number must contain only digits',
  heardAboutUs: 'Please tell us how you heard about us',
  city: 'City is required',
  country: 'Country is required',
  role: 'Role is required',
  code: 'Enter the 6-digit code',
  existingPassword: 'Current password is required',
} as const;

export const PASSWORD_MIN_LENGTH = 8;
export const PHONE_DIGITS = 10;
/** Identity's upper bound for a team size. */
export const MAX_TEAM_SIZE = 100_000;
export const OTP_LENGTH = 6;

export const REFERRAL_OPTIONS: readonly ReferralSource[] = [
  'Google',
  'YC',
  'Product Hunt',
  'Social Media',
  'Friends',
  'Accel',
  'Goodwater Capital',
  'Frontier Ventures',
  'Global Brains',
  'Accounting Firm',
  'Other',
];

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

export function checkEmail(email: string): string | undefined {
  const value = email.trim();
  if (value === '') return validationMessages.emailEmpty;
  if (!EMAIL_PATTERN.test(value)) return validationMessages.emailInvalid;
  return undefined;
}

/** A password being used (login): identity checks only presence there, so old passwords still sign in. */
export function checkPassword(password: string): string | undefined {
  return password.length < PASSWORD_MIN_LENGTH ? validationMessages.passwordShort : undefined;
}

/**
 * A password being chosen (sign-up, reset, change): identity's rule, checked here so the message appears at
 * the field before anything is sent. `shortMessage` is the spec's wording for the form in question.
 */
export function checkNewPassword(password: string, shortMessage: string = validationMessages.passwordShort): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return shortMessage;
  if (!/[A-Z]/.test(password) || !/[a-z]/.test(password) || !/[0-9]/.test(password)) return validationMessages.passwordComplexity;
  return undefined;
}

export function checkConfirmation(password: string, confirmation: string): string | undefined {
  return password !== confirmation ? validationMessages.passwordMismatch : undefined;
}

const required = (value: string, message: string): string | undefined => (value.trim() === '' ? message : undefined);

export function checkTeamSize(value: string): string | undefined {
  if (value.trim() === '') return validationMessages.teamSize;
  const size = Number(value.trim());
  return /^\d+$/.test(value.trim()) && size >= 1 && size <= MAX_TEAM_SIZE ? undefined : validationMessages.teamSizeInvalid;
}

export function checkPhone(value: string): string | undefined {
  const phone = value.trim();
  if (phone !== '' && !/^\d+$/.test(phone)) return validationMessages.phoneDigits;
  return phone.length === PHONE_DIGITS ? undefined : validationMessages.phoneLength;
}

/** Drops the keys without a message, so `Object.keys(errors).length === 0` means valid. */
function compact<K extends string>(errors: Record<K, string | undefined>): FieldErrors<K> {
  const result: FieldErrors<K> = {};
  for (const key of Object.keys(errors) as K[]) {
    const message = errors[key];
    if (message !== undefined) result[key] = message;
  }
  return result;
}

export interface SignUpFormValues {
  firstName: string;
  middleName: string;
  lastName: string;
  companyName: string;
  maxTeamSize: string;
  email: string;
  password: string;
}

export function validateSignUp(v: SignUpFormValues): FieldErrors<keyof SignUpFormValues> {
  return compact({
    firstName: required(v.firstName, validationMessages.firstName),
    middleName: required(v.middleName, validationMessages.middleName),
    lastName: required(v.lastName, validationMessages.lastName),
    companyName: required(v.companyName, validationMessages.companyName),
    maxTeamSize: checkTeamSize(v.maxTeamSize),
    email: checkEmail(v.email),
    password: checkNewPassword(v.password),
  });
}

export interface LoginFormValues {
  email: string;
  password: string;
}

export function validateLogin(v: LoginFormValues): FieldErrors<keyof LoginFormValues> {
  return compact({ email: checkEmail(v.email), password: checkPassword(v.password) });
}

export function validateOtpCode(code: string): string | undefined {
  return new RegExp(`^\\d{${OTP_LENGTH}}$`).test(code.trim()) ? undefined : validationMessages.code;
}

export interface OnboardFormValues {
  companyName: string;
  maxTeamSize: string;
  role: string;
  phoneNumber: string;
  city: string;
  country: string;
  heardAboutUs: string;
}

export function validateOnboard(v: OnboardFormValues): FieldErrors<keyof OnboardFormValues> {
  return compact({
    companyName: required(v.companyName, validationMessages.companyName),
    maxTeamSize: checkTeamSize(v.maxTeamSize),
    role: required(v.role, validationMessages.role),
    phoneNumber: checkPhone(v.phoneNumber),
    city: required(v.city, validationMessages.city),
    country: required(v.country, validationMessages.country),
    heardAboutUs: isReferralSource(v.heardAboutUs) ? undefined : validationMessages.heardAboutUs,
  });
}

export function isReferralSource(value: string): value is ReferralSource {
  return (REFERRAL_OPTIONS as readonly string[]).includes(value);
}

export interface NewPasswordFormValues {
  password: string;
  confirmPassword: string;
}

export function validateNewPassword(v: NewPasswordFormValues): FieldErrors<keyof NewPasswordFormValues> {
  return compact({ password: checkNewPassword(v.password), confirmPassword: checkConfirmation(v.password, v.confirmPassword) });
}

export interface ChangePasswordFormValues {
  existingPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export function validateChangePassword(v: ChangePasswordFormValues): FieldErrors<keyof ChangePasswordFormValues> {
  return compact({
    existingPassword: v.existingPassword === '' ? validationMessages.existingPassword : undefined,
    newPassword: checkNewPassword(v.newPassword, validationMessages.passwordShortChange),
    confirmPassword: checkConfirmation(v.newPassword, v.confirmPassword),
  });
}

export interface NamesFormValues {
  firstName: string;
  middleName: string;
  lastName: string;
}

export function validateNames(v: NamesFormValues): FieldErrors<keyof NamesFormValues> {
  return compact({
    firstName: required(v.firstName, validationMessages.firstName),
    middleName: required(v.middleName, validationMessages.middleName),
    lastName: required(v.lastName, validationMessages.lastName),
  });
}
