import type { BillingRecord } from '@ledgerline/proto/billing/v1/billing_pb';

/** A record as the REST answer (`BillingRecord`). */
export const recordJson = (record: BillingRecord | undefined) => ({ id: record?.id ?? '', title: record?.title ?? '', createdAt: record?.createdAt ?? '' });
