import { AccountResponse, ActivityResponse, UpdateAccountResponse, type ChangePasswordBody, type DeleteAccountBody, type UpdateAccountBody } from '@rarelens/contract';
import { api, apiRequest } from '../../lib/api-client.ts';

/** The signed-in user's own account. */
export const accountApi = {
  get: async () => (await api.get('/api/account', { schema: AccountResponse })).user,
  update: (body: UpdateAccountBody) => api.put('/api/account', body, { schema: UpdateAccountResponse }),
  changePassword: (body: ChangePasswordBody) => api.put<unknown>('/api/account/password', body),
  deleteAccount: (body: DeleteAccountBody) => apiRequest<unknown>('/api/account', { method: 'DELETE', body }),
  activity: (cursor?: string) =>
    api.get(`/api/account/activity${cursor === undefined ? '' : `?cursor=${encodeURIComponent(cursor)}`}`, { schema: ActivityResponse }),
};
