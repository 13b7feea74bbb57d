/**
 * GET /api/plans (public), /api/orders (the signed-in user's orders, placing, cancelling, the
 * invoice PDF) and GET /api/billing (what the user may upload now).
 */
import {
  BillingStatus,
  CreateOrderBody,
  ErrorBody,
  Order,
  OrderListResponse,
  OrderResponse,
  PlansResponse,
} from '@rarelens/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contentDisposition } from '../../http/content-disposition.ts';
import { currentUser } from '../../plugins/auth.ts';
import type { OrdersService } from './orders.service.ts';

const IdParams = z.object({ id: z.uuid({ error: 'Must be an order id' }) });

export const plansRoutes: FastifyPluginCallbackZod<{ ordersService: OrdersService }> = (app, { ordersService }, done) => {
  app.get('/', { schema: { response: { 200: PlansResponse } } }, () => ordersService.plans());
  done();
};

export const billingRoutes: FastifyPluginCallbackZod<{ ordersService: OrdersService }> = (app, { ordersService }, done) => {
  app.addHook('onRequest', app.authenticate);
  app.get('/', { schema: { response: { 200: BillingStatus } } }, (request) => ordersService.billingStatus(currentUser(request)));
  done();
};

export const ordersRoutes: FastifyPluginCallbackZod<{ ordersService: OrdersService }> = (app, { ordersService }, done) => {
  app.addHook('onRequest', app.authenticate);
  app.get('/', { schema: { response: { 200: OrderListResponse } } }, (request) => ordersService.listOrders(currentUser(request)));
  app.post(
    '/',
    { schema: { body: CreateOrderBody, response: { 201: OrderResponse, 400: ErrorBody } } },
    async (request, reply) => reply.status(201).send(await ordersService.placeOrder(currentUser(request), request.body)),
  );
  app.get(
    '/:id',
    { schema: { params: IdParams, response: { 200: z.object({ order: Order }), 400: ErrorBody, 404: ErrorBody } } },
    async (request) => ({ order: (await ordersService.invoice(currentUser(request), request.params.id)).order }),
  );
  app.get('/:id/invoice.pdf', { schema: { params: IdParams } }, async (request, reply) => {
    const { order, pdf } = await ordersService.invoice(currentUser(request), request.params.id);
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', contentDisposition(`invoice-${order.reference}.pdf`))
      .header('cache-control', 'private, no-store')
      .send(pdf);
  });
  app.post(
    '/:id/cancel',
    { schema: { params: IdParams, response: { 200: OrderResponse, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody } } },
    (request) => ordersService.cancel(currentUser(request), request.params.id),
  );
  done();
};
