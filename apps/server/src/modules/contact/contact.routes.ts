/** POST /api/contact: public, rate limited; registered with the contact service's `submit`. */
import { ContactBody, Messages } from '@rarelens/contract';
import { publicFormRoutes } from '../../http/public-form.ts';

export const contactRoutes = publicFormRoutes(ContactBody, Messages.messageSent);
