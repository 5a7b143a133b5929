/** User-facing messages (spec §5 where the spec has one). */
export const MESSAGES = {
  accountsEmpty: 'accounts cannot be empty',
  publicTokenRequired: 'publicToken is required',
  accountIdRequired: 'accountId is required',
  mustBeUuid: (field: string) => `${field} must be a UUID`,
  accountNotFound: 'Bank account not found',
  accountIdsRequired: 'Each account needs an id',
  unknownLinkedAccount: (id: string) => `Account ${id} is not part of this link`,
  mergeStrategy: 'mergeStrategy must be forward-only-merge or complete-merge',
  resolution: 'resolution must be keep_target, keep_both or keep_source',
  sameAccount: 'sourceAccountId and targetAccountId must differ',
  conflictTransaction: (field: string) => `${field} is not a transaction of the account`,
  status: 'status must be one of waiting, waiting-children, active, completed, failed, paused, repeat, wait, delayed, prioritized',
  syncing: 'Syncing all your latest transactions',
  removed: 'Bank account removed',
  merged: 'Accounts merged',
  reconnectRequired: 'The bank needs you to sign in again: reconnect the account',
} as const;

export const DUPLICATE_ACCOUNT = 'duplicate_account';
