/** Plans and orders as one registration: /api/plans, /api/orders, /api/billing. */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database.ts';
import type { Config } from '../../env.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { createInvoicePaymentProvider } from './orders.payment.ts';
import { billingRoutes, ordersRoutes, plansRoutes } from './orders.routes.ts';
import { createOrdersService, type OrdersService } from './orders.service.ts';

/** The orders service of a configuration (the server and the `rarelens orders` command). */
export function createOrdersServiceFor(opts: { config: Config; database: Database; mailer: Mailer }): OrdersService {
  return createOrdersService({ ...opts, provider: createInvoicePaymentProvider(opts.config.priceList) });
}

/** Registers the routes of an orders service (the one the cases module counts uploads with). */
export async function registerOrdersModule(app: FastifyInstance, { ordersService }: { ordersService: OrdersService }): Promise<OrdersService> {
  await app.register(plansRoutes, { prefix: '/api/plans', ordersService });
  await app.register(ordersRoutes, { prefix: '/api/orders', ordersService });
  await app.register(billingRoutes, { prefix: '/api/billing', ordersService });
  return ordersService;
}
