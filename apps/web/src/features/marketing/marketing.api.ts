import type { ContactBody, DemoRequestBody } from '@rarelens/contract';
import { api } from '../../lib/api-client.ts';

/** Public forms: no session involved. */
export const marketingApi = {
  sendContactMessage: (body: ContactBody) => api.post<unknown>('/api/contact', body, { auth: 'none' }),
  requestDemo: (body: DemoRequestBody) => api.post<unknown>('/api/demo-requests', body, { auth: 'none' }),
};
