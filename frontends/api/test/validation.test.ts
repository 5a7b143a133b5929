import { describe, expect, it } from 'vitest';
import {
  REFERRAL_OPTIONS,
  canEdit,
  checkNewPassword,
  checkPhone,
  checkTeamSize,
  hasRoleAtLeast,
  isAdminRole,
  normalizeEmail,
  validateChangePassword,
  validateLogin,
  validateNewPassword,
  validateOnboard,
  validateOtpCode,
  validateSignUp,
} from '../src/index';

describe('sign-up and login validation (spec §5)', () => {
  it('reports every missing sign-up field with the spec wording', () => {
    expect(validateSignUp({ firstName: '', middleName: ' ', lastName: '', companyName: '', maxTeamSize: '', email: '', password: '' })).toEqual({
      firstName: 'First Name is required',
      middleName: 'Middle Name is required',
      lastName: 'Last Name is required',
      companyName: 'Company name is required',
      maxTeamSize: 'Team size field is required',
      email: 'Email cannot be empty',
      password: 'Must be 8 or more characters',
    });
  });
  it('accepts a complete sign-up', () => {
    expect(
      validateSignUp({
        firstName: 'Ada',
        middleName: 'B',
        lastName: 'Lovelace',
        companyName: 'Engines',
        maxTeamSize: '5',
        email: 'ada@example.com',
        password: 'Correct horse 9',
      }),
    ).toEqual({});
  });
  it('rejects an invalid email and a short password', () => {
    expect(validateLogin({ email: 'ada@', password: 'short' })).toEqual({ email: 'Please enter a valid email', password: 'Must be 8 or more characters' });
    expect(normalizeEmail('  Ada@Example.COM ')).toBe('ada@example.com');
  });
  it('checks the one-time code and password confirmation', () => {
    expect(validateOtpCode('12345')).toBe('Enter the 6-digit code');
    expect(validateOtpCode('123456')).toBeUndefined();
    expect(validateNewPassword({ password: 'Abcdefg1', confirmPassword: 'Abcdefgx' })).toEqual({ confirmPassword: 'Password must match' });
    // Changing a password uses the spec's other message set, as identity does (docs/decisions/0002).
    expect(validateChangePassword({ existingPassword: '', newPassword: 'abc', confirmPassword: 'abc' })).toEqual({
      existingPassword: 'Current password is required',
      newPassword: 'Password must have atleast 8 characters',
    });
  });
  it('asks a chosen password for an uppercase letter, a lowercase letter and a number, as identity does', () => {
    const complexity = 'Must contain at least one uppercase letter, one lowercase letter, and one number';
    expect(checkNewPassword('alllowercase1')).toBe(complexity);
    expect(checkNewPassword('ALLUPPERCASE1')).toBe(complexity);
    expect(checkNewPassword('NoDigitsHere')).toBe(complexity);
    expect(checkNewPassword('Sup3rSecret')).toBeUndefined();
    expect(checkNewPassword('Ab1')).toBe('Must be 8 or more characters');
    expect(
      validateSignUp({ firstName: 'A', middleName: 'B', lastName: 'C', companyName: 'D', maxTeamSize: '1', email: 'a@b.co', password: 'password' }),
    ).toEqual({ password: complexity });
    expect(validateNewPassword({ password: 'password1', confirmPassword: 'password1' })).toEqual({ password: complexity });
  });
  it('takes a team size from 1 to 100000', () => {
    expect(checkTeamSize('')).toBe('Team size field is required');
    expect(checkTeamSize('0')).toBe('Team size must be a whole number from 1 to 100000');
    expect(checkTeamSize('2.5')).toBe('Team size must be a whole number from 1 to 100000');
    expect(checkTeamSize('100001')).toBe('Team size must be a whole number from 1 to 100000');
    expect(checkTeamSize(' 100000 ')).toBeUndefined();
  });
});

describe('onboarding validation (spec §5)', () => {
  it('needs a 10-digit phone made of digits', () => {
    expect(checkPhone('')).toBe('Phone number must be 10 digits');
    expect(checkPhone('12345')).toBe('Phone number must be 10 digits');
    expect(checkPhone('555-123-45')).toBe('Phone number must contain only digits');
    expect(checkPhone('5551234567')).toBeUndefined();
  });
  it('needs city, country and a referral option', () => {
    const errors = validateOnboard({
      companyName: 'Acme',
      maxTeamSize: '3',
      role: 'Founder',
      phoneNumber: '5551234567',
      city: '',
      country: '',
      heardAboutUs: '',
    });
    expect(errors).toEqual({ city: 'City is required', country: 'Country is required', heardAboutUs: 'Please tell us how you heard about us' });
  });
  it('lists the referral options of spec §3', () => {
    expect(REFERRAL_OPTIONS).toEqual([
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
    ]);
  });
});

describe('roles (spec §6)', () => {
  it('ranks Owner > Accountant > Admin > Viewer', () => {
    expect(hasRoleAtLeast('Accountant', 'Admin')).toBe(true);
    expect(hasRoleAtLeast('Admin', 'Accountant')).toBe(false);
    expect(hasRoleAtLeast('Viewer', 'Viewer')).toBe(true);
    expect(isAdminRole('Accountant')).toBe(false);
    expect(isAdminRole('Admin')).toBe(true);
    expect(canEdit('Viewer')).toBe(false);
  });
});
