export { createApiClient, WORKSPACE_HEADER } from './client';
export type { ApiClient, ApiClientOptions, Download, HttpMethod, JobsFilter, RequestOptions, StreamEvent, UploadOptions } from './client';
export { ApiError, GENERIC_ERROR_MESSAGE, SESSION_EXPIRED_MESSAGE, describeError, extractError, isApiError, toApiError } from './errors';
export type { ApiErrorInit } from './errors';
export { buildUrl } from './url';
export type { QueryParams, QueryValue } from './url';
export { fileNameFromContentDisposition, fileNameFromHeaders } from './file-name';
export { ApiProvider, useApiClient, useApiContext, useCurrentUser } from './context';
export type { ApiContextValue, ApiProviderProps } from './context';
export {
  queryKeys,
  useBankAccounts,
  useCreateLinkToken,
  useCreateUpdateToken,
  useImportJobs,
  useLinkAccounts,
  useMe,
  useRemoveAccount,
  useSyncJobsInProgress,
  useSyncTransactions,
  useUpdateMe,
  useUpdatePasswordByExistingPassword,
  useSecuritySettings,
  useUpdateSecuritySettings,
} from './hooks';
export { IN_PROGRESS_JOB_STATUSES, JOB_POLL_INTERVAL_MS, importState, isCreditCard, isJobInProgress } from './banking';
export type { AccountKind, ImportState } from './banking';
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
// Ledger: transactions and their categories (spec §3 Transaction, Category, Split; §4 restrictions).
export { ACCRUAL_CATEGORIES, TRANSACTIONS_PAGE_SIZE } from './ledger';
export type * from './ledger';
export {
  ledgerQueryKeys,
  useAccrualSchedule,
  useBillers,
  useBulkUpdateTransactions,
  useCategories,
  useCategoriseTransaction,
  useCreateAccrual,
  useCreateCategory,
  useDeleteAccrual,
  useFinalizeTransactions,
  useSplitTransaction,
  useStopAccrual,
  useTransaction,
  useTransactionAuditLogs,
  useTransactionList,
  useUpdateAccrual,
  useUpdateSplit,
} from './ledger-hooks';
// Accounting: the chart of accounts and the general ledger (spec §3 Account tree node, §5 coaId, §9 indent and infinite scroll).
export { LEDGER_PAGE_SIZE, TREE_INDENT_PX, ledgerSearch, periodFromSearch } from './accounting';
export type * from './accounting';
export {
  accountingQueryKeys,
  useAddChartAccount,
  useChartOfAccounts,
  useDeleteChartAccounts,
  useGeneralLedger,
  useLedgerLines,
  useMoveChartAccount,
  useUpdateChartAccount,
} from './accounting-hooks';
// Reports: profit and loss, balance sheet, exports and the dashboard's series (spec §2 drill-down, §3 filter set and report data, §5 fallbacks).
export {
  DATE_BREAKDOWNS,
  EXPORT_FORMATS,
  KNOWN_REPORT_PATHS,
  MONEY_TYPES,
  PERIODICITY_OF,
  REPORT_EXPORT_BASES,
  REPORT_FILTER_DEFAULTS,
  REPORT_PATHS,
  REPORT_TABS,
  SERVED_REPORT_PATHS,
  isDateBreakdown,
  isMoneyType,
  isReportPathServed,
  reportExportPath,
  parseStoredFilters,
  reportQuery,
  spendingQuery,
  dashboardQueries,
} from './reports';
export type * from './reports';
export {
  DASHBOARD_FRESH_MS,
  afterBooksChanged,
  fetchReport,
  reportsQueryKeys,
  useAssetBalanceGraph,
  useBalanceSheet,
  useCashFlow,
  useCashFlowStatement,
  useDashboard,
  usePrefetchDashboard,
  prefetchDashboard,
  useGroupsAndTags,
  useProfitLoss,
  useReportExport,
  useRunway,
  useSpending,
  useTopMerchants,
} from './reports-hooks';
export type { DashboardAnswer, DashboardWidget, ReportExportRequest, WidgetQueryOptions } from './reports-hooks';
// Reads after writes: the ledger commit sequence a change answered, sent with report requests.
export { createLedgerSeq, withSeq } from './seq';
export type { LedgerSeq } from './seq';
// Books that tie to the bank (issue #12): the tie-out's shapes and sums, transfer pairs and report drill links.
export { combinedStatus, dashboardTieOut, tieOutGroup } from './books';
export type * from './books';
export {
  TIE_OUT_POLL_MS,
  booksQueryKeys,
  useAccountsTieOut,
  useOpeningBalance,
  usePairTransfer,
  useSetOpeningBalance,
  useTransferCandidates,
  useUnpairTransfer,
} from './books-hooks';
// The transaction drawer (issue #13): receipts, comments with tagged users, CSV exports of transactions and the general ledger.
export {
  RECEIPT_ACCEPT,
  RECEIPT_MAX_MB,
  drawerQueryKeys,
  openDownload,
  saveDownload,
  useGeneralLedgerCsv,
  usePostComment,
  useReceiptFile,
  useTaggableUsers,
  useTransactionComments,
  useTransactionReceipts,
  useTransactionsCsv,
  useUploadReceipts,
  type PostCommentBody,
  type Receipt,
  type ReceiptUploadResponse,
  type TransactionComment,
  type TaggableUser,
  type UserRef,
} from './drawer-hooks';
// Teams (issue #16): workspaces, the organization, members and invites (spec platform-core §3, §6, §7).
export { ASSIGNABLE_ROLES, DEFAULT_INVITE_ROLE, INVITE_STATUS_LABELS, teamsApi, userAfterWorkspaceDeleted } from './teams';
export type * from './teams';
export {
  teamsQueryKeys,
  useCreateWorkspace,
  useDeleteWorkspace,
  useInvites,
  useMembers,
  useOrganization,
  useRemoveMember,
  useRevokeInvite,
  useSendInvite,
  useUpdateInvite,
  useUpdateMember,
  useUpdateWorkspace,
  useWorkspaces,
} from './teams-hooks';
// The accounting firm's own management (issue #16): the firm, client organizations, members, invites, access.
export { FIRM_ACCESS_CHANGES, FIRM_INVITE_ROLES, canManageFirm, firmTeamApi } from './firm-team';
export type * from './firm-team';
export {
  firmTeamQueryKeys,
  useAddFirmClientOrganization,
  useChangeFirmMemberAccess,
  useFirmClientOrganizations,
  useFirmMembers,
  useFirmProfile,
  useInviteFirmMember,
  useMakeDefaultFirmClientOrganization,
  useRemoveFirmClientOrganization,
  useRemoveFirmMember,
  useRevokeFirmInvite,
  useUpdateFirm,
  useUpdateFirmMember,
} from './firm-team-hooks';
// Accounting firms in the shell (issue #16): client organizations, invite links, the firm sign-up.
export {
  FIRM_INVITE_KIND,
  FIRM_MANAGER_ROLES,
  ORGANIZATION_NAME_MAX,
  ORGANIZATION_NAME_REQUIRED,
  checkOrganizationName,
  filterFirmOrganizations,
  firmApi,
  firmSignUpBody,
  firmValidationMessages,
  inviteFromSearch,
  isFirmManager,
  validateFirmSignUp,
} from './firm';
export type * from './firm';
export { firmQueryKeys, useAcceptFirmInvite, useAddFirmOrganization, useFirmMe, useFirmOrganizations, useVerifyInvite } from './firm-hooks';
// Parties (issue #17): vendors, customers and vendor rules (spec documents-parties-integrations §2, §3, §5, §7, §9).
export { ADDED_FILTERS, PARTIES_PAGE_SIZE, PARTY_STATUSES, customersQuery, partiesApi, vendorsQuery } from './parties';
export type * from './parties';
export { AMOUNT_SIGNS, DESCRIPTION_SIGNS, VENDOR_RULE_CONDITION_MESSAGE, validateVendorRule, vendorRuleBody, vendorRulesApi } from './parties-rules';
export type * from './parties-rules';
export { CREDITS_PAGE_SIZE, creditRestBody, creditsApi, partyCreditOf } from './parties-credits';
export type * from './parties-credits';
export {
  partiesQueryKeys,
  useCredit,
  useCreditList,
  useDeleteCredit,
  useSaveCredit,
  useCreateCustomer,
  useCreateVendor,
  useCustomer,
  useCustomerList,
  useCustomersCsv,
  useDeleteCustomer,
  useDeleteVendor,
  useDeleteVendorRule,
  useMergeVendors,
  useSaveVendorRule,
  useUpdateCustomer,
  useUpdateVendor,
  useVendor,
  useVendorList,
  useVendorRule,
  useVendorRules,
  useVendorsCsv,
} from './parties-hooks';
// Documents (issue #18): bills, invoices and manual journals (spec documents-parties-integrations §3, §5, §7).
export {
  DOCUMENT_ENTITY_TYPES,
  DOCUMENT_PATHS,
  DOCUMENT_STATUSES,
  DOCUMENTS_PAGE_SIZE,
  PAYMENT_STATUSES,
  RECURRENCE_INTERVALS,
  documentsApi,
} from './documents';
export type * from './documents';
export { BULK_DRAFT_MODE, draftsApi } from './drafts';
export type * from './drafts';
export { draftsQueryKeys, useDraftActions, useDrafts } from './drafts-hooks';
// Uploads (issue #19): receipts, bills and invoices as files, with the request's progress; receipt matching; the bulk-upload job.
export {
  BULK_UPLOAD_QUEUE,
  RECEIPT_STATUSES,
  UPLOAD_EXTENSIONS,
  UPLOAD_MAX_BYTES,
  UPLOAD_MAX_FILES,
  UPLOAD_MESSAGES,
  bulkUploadJobs,
  jobOfBatch,
  refusedEach,
  uploadsApi,
} from './uploads';
export type * from './uploads';
export {
  UPLOADS_PAGE_SIZE,
  uploadsQueryKeys,
  useBatchJobs,
  useBulkUploadJobIds,
  useMatchUpload,
  useUpdateUpload,
  useUploadFiles,
  useUploadList,
} from './uploads-hooks';
export type { UploadBatch } from './uploads-hooks';
export { paymentDetailsApi, usePaymentDetailsCheck, type PaymentDetail, type PaymentDetailsBody, type PaymentDetailsCheck } from './payment-details';
export {
  documentsQueryKeys,
  useCheckManualEntry,
  useDeleteDocument,
  useDocument,
  useDocumentList,
  useDocumentsCsv,
  useInvoicePdf,
  usePaymentCandidates,
  useRecurDocument,
  useSaveDocument,
  useVoidDocument,
} from './documents-hooks';

// Fixed assets and schedules (issue #19 items 6, 7).
export * from './fixed-assets';

// In-app notifications and the live bell (decision 0040).
export {
  BELL_TAKE,
  notificationsQueryKeys,
  reconnectDelayMs,
  useMarkAllNotificationsRead,
  useMarkNotificationRead,
  useNotificationStream,
  useNotifications,
  type Notification,
  type NotificationList,
  type NotificationPreferences,
} from './notifications';

// Billing: plans, checkout and the subscription (issue #21 item 6, decision 0044).
export { billingApi, SUBSCRIPTION_STATUS_LABELS } from './billing';
export type * from './billing';
export { billingQueryKeys, useBillingPlans, useCheckout, useSubscription } from './billing-hooks';
