export { createApiClient, WORKSPACE_HEADER } from './client';
export type { ApiClient, ApiClientOptions, Download, HttpMethod, RequestOptions } from './client';
export { ApiError, GENERIC_ERROR_MESSAGE, SESSION_EXPIRED_MESSAGE, describeError, extractError, isApiError, toApiError } from './errors';
export type { ApiErrorInit } from './errors';
export { buildUrl } from './url';
export type { QueryParams, QueryValue } from './url';
export { fileNameFromContentDisposition, fileNameFromHeaders } from './file-name';
export { ApiProvider, useApiClient, useApiContext, useCurrentUser } from './context';
export type { ApiContextValue, ApiProviderProps } from './context';
export { queryKeys, useMe, useUpdateMe, useUpdatePasswordByExistingPassword } from './hooks';
export type * from './types';
export { DEMO_DISABLED_MESSAGE, VIEWER_DISABLED_MESSAGE, canEdit, hasRoleAtLeast, isAdminRole } from './roles';
export {
  MAX_TEAM_SIZE,
  OTP_LENGTH,
  PASSWORD_MIN_LENGTH,
  PHONE_DIGITS,
  REFERRAL_OPTIONS,
  checkConfirmation,
  checkEmail,
  checkNewPassword,
  checkPassword,
  checkPhone,
  checkTeamSize,
  isReferralSource,
  normalizeEmail,
  validateChangePassword,
  validateLogin,
  validateNames,
  validateNewPassword,
  validateOnboard,
  validateOtpCode,
  validateSignUp,
  validationMessages,
} from './validation';
export type {
  ChangePasswordFormValues,
  FieldErrors,
  LoginFormValues,
  NamesFormValues,
  NewPasswordFormValues,
  OnboardFormValues,
  SignUpFormValues,
} from './validation';
