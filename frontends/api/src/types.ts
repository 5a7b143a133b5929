// Every payload type comes from the generated OpenAPI schema; nothing here defines a shape by hand.
import type { components, operations } from './gen/schema';

export type Schemas = components['schemas'];

export type User = Schemas['User'];
export type Workspace = Schemas['Workspace'];
export type OnboardingProfile = Schemas['OnboardingProfile'];
export type ErrorResponse = Schemas['ErrorResponse'];
export type FieldError = Schemas['FieldError'];
export type SignUpBody = Schemas['SignUpBody'];
export type SignUpResponse = Schemas['SignUpResponse'];
export type LoginBody = Schemas['LoginBody'];
export type LoginResponse = Schemas['LoginResponse'];
export type AuthenticateOtpBody = Schemas['AuthenticateOtpBody'];
export type SessionResponse = Schemas['SessionResponse'];
export type ResendOtpBody = Schemas['ResendOtpBody'];
export type ResendOtpResponse = Schemas['ResendOtpResponse'];
export type OauthBody = Schemas['OauthBody'];
export type OauthResponse = Schemas['OauthResponse'];
export type ForgotPasswordBody = Schemas['ForgotPasswordBody'];
export type MessageResponse = Schemas['MessageResponse'];
export type ResetPasswordBody = Schemas['ResetPasswordBody'];
export type ResetPasswordResponse = Schemas['ResetPasswordResponse'];
export type UpdateCredentialsBody = Schemas['UpdateCredentialsBody'];
export type UpdatePasswordBody = Schemas['UpdatePasswordBody'];
export type OnboardBody = Schemas['OnboardBody'];
export type UpdateMeBody = Schemas['UpdateMeBody'];

export type Role = User['role'];
export type UserType = User['userType'];
export type ReferralSource = NonNullable<OnboardBody['heardAboutUs']>;

type SuccessBody<R> = R extends { 200: { content: { 'application/json': infer B } } }
  ? B
  : R extends { 201: { content: { 'application/json': infer B } } }
    ? B
    : never;

/** The JSON body of an operation's success response, for operations whose answer has no named schema. */
export type OperationResult<K extends keyof operations> = SuccessBody<operations[K]['responses']>;

export type UpdateCredentialsResponse = OperationResult<'updateCredentials'>;
export type UpdatePasswordResponse = OperationResult<'updatePasswordByExistingPassword'>;
export type OnboardResponse = OperationResult<'onboardUser'>;
export type SecuritySettings = OperationResult<'getSecuritySettings'>;
export type UpdateSecuritySettingsBody = NonNullable<operations['updateSecuritySettings']['requestBody']>['content']['application/json'];
/** The JSON body an operation takes. */
export type OperationBody<K extends keyof operations> = operations[K] extends { requestBody?: { content: { 'application/json': infer B } } }
  ? NonNullable<B>
  : never;

// Banking (spec §3 Bank account, Bank account link, Job).
export type BankAccount = Schemas['BankAccount'];
export type Job = Schemas['Job'];
export type JobStatus = Job['status'];
export type LinkTokenResponse = Schemas['LinkTokenResponse'];
export type LinkAccountsBody = Schemas['LinkAccountsBody'];
export type LinkAccountsResponse = Schemas['LinkAccountsResponse'];
export type AccountsResponse = Schemas['AccountsResponse'];
export type CheckAnomalyResponse = Schemas['CheckAnomalyResponse'];
export type SyncResponse = Schemas['SyncResponse'];
export type JobsResponse = Schemas['JobsResponse'];
export type RemoveAccountResponse = OperationResult<'removeAccount'>;
/** The queue statuses GET /jobs filters by (spec §3): the stored ones plus the queue's other names. */
export type JobStatusFilter = JobStatus | 'waiting-children' | 'paused' | 'repeat' | 'wait' | 'prioritized';
