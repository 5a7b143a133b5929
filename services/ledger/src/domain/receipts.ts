/** Receipts attached to a transaction (spec §3 "Receipt upload": jpg, jpeg, png, pdf). Pure. */

/**
 * The messages of the ledger's receipt calls. The files themselves are uploads of the documents service (decision
 * 0031), which judges them by their content; the ledger keeps the trail of attachments and the receipts it stored
 * before.
 */
export const RECEIPT_MSG = {
  filesRequired: 'receipts is required',
  notFound: 'Receipt',
} as const;
