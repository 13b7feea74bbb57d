import { BillingStatus, OrderListResponse, OrderResponse, PlansResponse, type CreateOrderBody } from '@rarelens/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';
import { downloadFile } from '../../lib/download.ts';

export const ordersKeys = {
  plans: ['plans'] as const,
  orders: ['orders'] as const,
  billing: ['billing'] as const,
};

export const ordersApi = {
  plans: (signal?: AbortSignal) => api.get('/api/plans', { schema: PlansResponse, signal, auth: 'none' }),
  list: (signal?: AbortSignal) => api.get('/api/orders', { schema: OrderListResponse, signal }).then((r) => r.items),
  billing: (signal?: AbortSignal) => api.get('/api/billing', { schema: BillingStatus, signal }),
  create: (body: CreateOrderBody) => api.post('/api/orders', body, { schema: OrderResponse }),
  invoice: (orderId: string) => downloadFile(`/api/orders/${encodeURIComponent(orderId)}/invoice.pdf`),
};

/** The price list (public: also the landing page's #pricing). */
export function usePlans() {
  return useQuery({ queryKey: ordersKeys.plans, queryFn: ({ signal }) => ordersApi.plans(signal), staleTime: 5 * 60_000 });
}

export function useOrders() {
  return useQuery({ queryKey: ordersKeys.orders, queryFn: ({ signal }) => ordersApi.list(signal) });
}

/** Whether the user may upload now (billing on: the active plan's remaining cases). */
export function useBilling() {
  return useQuery({ queryKey: ordersKeys.billing, queryFn: ({ signal }) => ordersApi.billing(signal) });
}

export function useCreateOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ordersApi.create,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ordersKeys.orders }),
        queryClient.invalidateQueries({ queryKey: ordersKeys.billing }),
      ]),
  });
}
