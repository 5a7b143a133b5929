import type { IntegrationsRecord } from '@ledgerline/proto/integrations/v1/integrations_pb';

/** A record as the REST answer (`IntegrationsRecord`). */
export const recordJson = (record: IntegrationsRecord | undefined) => ({
  id: record?.id ?? '',
  title: record?.title ?? '',
  createdAt: record?.createdAt ?? '',
});
