/**
 * The id of the notice that says a sign-in code was emailed (login, sign-up, Resend code): a resent code's notice
 * replaces the first instead of stacking, and a verified code takes it away, so the page the user lands on does not
 * open under "We sent a 6-digit code to your email."
 */
export const CODE_SENT_NOTICE = 'sign-in-code-sent';
