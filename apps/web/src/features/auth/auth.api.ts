import { RegisterResponse, type PublicUser, type RegisterBody } from '@rarelens/contract';
import { api } from '../../lib/api-client.ts';

/** Account creation and e-mail verification, password reset: calls where 401/403 are answers. */
export const authApi = {
  register: async (body: RegisterBody): Promise<PublicUser> =>
    (await api.post('/api/auth/register', body, { schema: RegisterResponse, auth: 'none' })).user,
  verifyEmail: (body: { email: string; code: string }) => api.post<unknown>('/api/auth/verify', body, { auth: 'none' }),
  resendCode: (body: { email: string }) => api.post<unknown>('/api/auth/resend-code', body, { auth: 'none' }),
  requestPasswordReset: (body: { email: string }) =>
    api.post<unknown>('/api/auth/password-reset', body, { auth: 'none' }),
  /** Resolves when the link is usable; rejects with 410 reset_link_expired otherwise. */
  checkResetToken: (token: string) =>
    api.get<unknown>(`/api/auth/password-reset/${encodeURIComponent(token)}`, { auth: 'none' }),
  resetPassword: (token: string, body: { password: string }) =>
    api.post<unknown>(`/api/auth/password-reset/${encodeURIComponent(token)}`, body, { auth: 'none' }),
};

