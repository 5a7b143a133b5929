// The sign-up form's pure rules (test/signup.test.ts): the kind of account, its checks and its POST /signup body.
import {
  firmSignUpBody,
  normalizeEmail,
  validateFirmSignUp,
  validateSignUp,
  type FirmSignUpBody,
  type FirmSignUpFormValues,
  type SignUpBody,
  type SignUpKind,
} from '@ledgerline/api';

export const SIGN_UP_KINDS: ReadonlyArray<{ kind: SignUpKind; label: string; description: string }> = [
  { kind: 'business', label: 'Business', description: 'Keep the books of your own company.' },
  { kind: 'firm', label: 'Accounting firm', description: 'Keep the books of your clients.' },
];

/** The form's checks for the kind of account chosen: a firm names the firm and its country instead of a company. */
export const signUpValidator = (kind: SignUpKind) => (v: FirmSignUpFormValues) => (kind === 'firm' ? validateFirmSignUp(v) : validateSignUp(v));

/** The POST /signup body for the form's values: a business as before; a firm adds userType firm, firmName and country. */
export function signUpBodyFor(kind: SignUpKind, v: FirmSignUpFormValues): SignUpBody | FirmSignUpBody {
  const base: SignUpBody = {
    firstName: v.firstName.trim(),
    middleName: v.middleName.trim(),
    lastName: v.lastName.trim(),
    companyName: v.companyName.trim(),
    maxTeamSize: Number(v.maxTeamSize),
    email: normalizeEmail(v.email),
    password: v.password,
  };
  return kind === 'firm' ? firmSignUpBody(v, base) : base;
}
