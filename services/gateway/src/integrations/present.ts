import type { GetStripeSyncStatusResponse, StripeAccount } from '@ledgerline/proto/integrations/v1/integrations_pb';

/** The connected Stripe account as the REST answer (`StripeAccount`). */
export const stripeAccountJson = (a: StripeAccount | undefined) => ({
  id: a?.id ?? '',
  stripeAccountId: a?.stripeAccountId ?? '',
  name: a?.name ?? '',
  email: a?.email ?? '',
  country: a?.country ?? '',
  defaultCurrency: a?.defaultCurrency ?? '',
  scope: a?.scope ?? '',
  connectedAt: a?.connectedAt ?? '',
  lastSyncedAt: a?.lastSyncedAt ?? '',
});

export const syncStatusJson = (s: GetStripeSyncStatusResponse) => ({
  status: s.status,
  jobId: s.jobId,
  startedAt: s.startedAt,
  finishedAt: s.finishedAt,
  lastSyncedAt: s.lastSyncedAt,
  objectsSynced: Number(s.objectsSynced),
  objects: s.objects.map((o) => ({ objectType: o.objectType, count: Number(o.count) })),
  error: s.error,
});
