// POST /accounting/payment-details/check (decision 0020): what a manual journal would pay of each bill and invoice,
// with the status each would have, asked of the server without saving. The journal editor shows it as it is typed.
import { useQuery } from '@tanstack/react-query';
import type { ApiClient } from './client';
import { useApiContext } from './context';
import type { ApiError } from './errors';
import type { Schemas } from './types';

export type PaymentDetail = Schemas['PaymentDetail'];
export type PaymentDetailsCheck = Schemas['PaymentDetailsCheck'];
export type PaymentDetailsBody = Schemas['PaymentDetailsBody'];

export const paymentDetailsApi = {
  check: (client: ApiClient, body: PaymentDetailsBody, signal?: AbortSignal): Promise<PaymentDetailsCheck> =>
    client.post('/accounting/payment-details/check', { body, signal }),
};

/** The check of `body`, asked again whenever it changes; null (nothing connected) asks nothing. */
export function usePaymentDetailsCheck(body: PaymentDetailsBody | null) {
  const { client } = useApiContext();
  return useQuery<PaymentDetailsCheck, ApiError>({
    queryKey: ['documents', 'payment-details', body],
    queryFn: ({ signal }) => paymentDetailsApi.check(client, body ?? {}, signal),
    enabled: body !== null,
    retry: false,
  });
}
