/** POST /api/demo-requests: public, rate limited; registered with the demo-requests service's `submit`. */
import { DemoRequestBody, Messages } from '@rarelens/contract';
import { publicFormRoutes } from '../../http/public-form.ts';

export const demoRequestsRoutes = publicFormRoutes(DemoRequestBody, Messages.demoRequestSent);
