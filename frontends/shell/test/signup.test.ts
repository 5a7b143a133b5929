// The sign-up form's choice of account (src/pages/auth/signup.ts): business or accounting firm, each checked with
// the spec's messages and sent with the spec's field names.
import { describe, expect, it } from 'vitest';
import { signUpBodyFor, signUpValidator } from '../src/pages/auth/signup';

const filled = {
  firstName: ' Ada ',
  middleName: 'K',
  lastName: 'Lovelace',
  companyName: 'Analytical Co',
  maxTeamSize: '5',
  email: ' Ada@Example.COM ',
  password: 'Sup3rSecret',
  firmName: '',
  country: '',
};

describe('sign-up as a business', () => {
  it('checks the company and sends the business body, without firm fields', () => {
    expect(signUpValidator('business')(filled)).toEqual({});
    expect(signUpValidator('business')({ ...filled, companyName: ' ' })).toEqual({ companyName: 'Company name is required' });
    const body = signUpBodyFor('business', filled);
    expect(body).toEqual({
      firstName: 'Ada',
      middleName: 'K',
      lastName: 'Lovelace',
      companyName: 'Analytical Co',
      maxTeamSize: 5,
      email: 'ada@example.com',
      password: 'Sup3rSecret',
    });
    expect('userType' in body).toBe(false);
  });
});

describe('sign-up as an accounting firm', () => {
  it('needs the firm name and country (not a company name), with the firm service messages', () => {
    const firm = { ...filled, companyName: '' };
    expect(signUpValidator('firm')(firm)).toEqual({ firmName: 'Firm name is required', country: 'Country is required' });
    expect(signUpValidator('firm')({ ...firm, firmName: 'Ledger & Co', country: 'US', password: 'short' })).toEqual({
      password: 'Must be 8 or more characters',
    });
    expect(signUpValidator('firm')({ ...firm, firmName: 'Ledger & Co', country: 'US' })).toEqual({});
    // The team size is optional for a firm, checked when given.
    expect(signUpValidator('firm')({ ...firm, firmName: 'Ledger & Co', country: 'US', maxTeamSize: '' })).toEqual({});
    expect(signUpValidator('firm')({ ...firm, firmName: 'Ledger & Co', country: 'US', maxTeamSize: 'many' })).toEqual({
      maxTeamSize: 'Team size must be a whole number from 1 to 100000',
    });
    expect(signUpValidator('business')({ ...filled, maxTeamSize: '' })).toEqual({ maxTeamSize: 'Team size field is required' });
  });

  it('sends userType firm, firmName and country, the firm name standing for the company', () => {
    expect(signUpBodyFor('firm', { ...filled, companyName: '', firmName: ' Ledger & Co ', country: ' United States ' })).toEqual({
      firstName: 'Ada',
      middleName: 'K',
      lastName: 'Lovelace',
      companyName: 'Ledger & Co',
      maxTeamSize: 5,
      email: 'ada@example.com',
      password: 'Sup3rSecret',
      userType: 'firm',
      firmName: 'Ledger & Co',
      country: 'United States',
    });
    expect('maxTeamSize' in signUpBodyFor('firm', { ...filled, maxTeamSize: '', firmName: 'Ledger & Co', country: 'US' })).toBe(false);
  });
});
