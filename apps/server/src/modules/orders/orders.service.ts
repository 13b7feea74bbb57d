/**
 * Plans and orders: price list, placing and cancelling orders, the invoice, activation by an
 * operator, and — with RARELENS_BILLING=on — counting each new case against the active plan.
 */
import {
  CreateOrderBody,
  ErrorCode,
  Messages,
  quoteOrder,
  type BillingStatus,
  type Order,
  type OrderListResponse,
  type OrderResponse,
  type PlansResponse,
} from '@rarelens/contract';
import type { Database, Executor } from '../../db/database.ts';
import type { Config } from '../../env.ts';
import { AppError } from '../../errors.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { findUserById } from '../users/index.ts';
import { renderInvoicePdf, type InvoiceParty } from './orders.invoice.ts';
import { orderActivatedMail, orderConfirmationMail } from './orders.mails.ts';
import type { PaymentProvider } from './orders.payment.ts';
import { canReadOrder } from './orders.policy.ts';
import { presentOrder } from './orders.presenter.ts';
import {
  activateOrder,
  activeOrdersOfUser,
  cancelOrder,
  countUsage,
  expireOrders,
  findOrder,
  insertOrder,
  insertUsage,
  listOrdersByStatus,
  listOrdersOfUser,
  lockActiveOrdersOfUser,
  lockOrder,
} from './orders.repository.ts';


/** The answer to placing or cancelling an order: its id, price and status up front, then the order. */
function orderResponse(order: Order, message: string): OrderResponse {
  return { id: order.id, price: order.price, status: order.status, order, message };
}

export type OrdersService = ReturnType<typeof createOrdersService>;

/** The same day of the next month, or its last day (31 Jan → 28/29 Feb). */
export function addOneMonth(from: Date): Date {
  const next = new Date(from);
  const day = from.getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, lastDay));
  return next;
}

const orderNotFound = () => new AppError(404, ErrorCode.orderNotFound, Messages.orderNotFound);

export function createOrdersService(deps: {
  database: Database;
  mailer: Mailer;
  config: Pick<Config, 'priceList' | 'billing' | 'publicUrl'>;
  provider: PaymentProvider;
}) {
  const { database, mailer, config, provider } = deps;
  const { priceList } = config;
  const ordersUrl = `${config.publicUrl}/my-account/orders`;
  const db = database.db;

  async function customerOf(userId: string): Promise<InvoiceParty & { firstName: string }> {
    const user = await findUserById(db, userId);
    if (user === undefined) throw new Error(`user ${userId} of an order does not exist`);
    return {
      firstName: user.name,
      name: `${user.name} ${user.surname}`,
      email: user.email,
      address: [user.address, [user.state, user.country].filter((v) => v).join(', ')].filter((v): v is string => !!v),
    };
  }

  async function invoiceOf(order: Order, customer: InvoiceParty): Promise<Buffer> {
    return renderInvoicePdf(order, customer, { priceList, instructions: provider.instructions(order), dueDate: provider.dueDate(order) });
  }

  async function ownOrder(user: { id: string }, id: string): Promise<Order> {
    await expireOrders(db, new Date());
    const found = await findOrder(db, id);
    if (found === null || !canReadOrder(user, found.order)) throw orderNotFound();
    return presentOrder(found);
  }

  return {
    plans(): PlansResponse {
      return {
        currency: priceList.currency,
        maxCasesPerMonth: priceList.maxCasesPerMonth,
        plans: priceList.plans,
        addOns: priceList.addOns,
        billing: config.billing,
      };
    },

    /** Places an order pending payment and e-mails the confirmation with the invoice; a failed e-mail rolls it back. */
    async placeOrder(user: { id: string }, input: CreateOrderBody): Promise<OrderResponse> {
      const body = CreateOrderBody.parse(input);
      if (body.casesPerMonth > priceList.maxCasesPerMonth) {
        throw new AppError(400, ErrorCode.validationFailed, `At most ${priceList.maxCasesPerMonth} cases per month can be ordered (casesPerMonth: ${body.casesPerMonth})`);
      }
      const plan = priceList.plans.find((p) => p.code === body.plan);
      if (plan === undefined) throw new AppError(400, ErrorCode.validationFailed, `The plan '${body.plan}' is not offered (plan)`);
      const missing = body.addOns.find((code) => !priceList.addOns.some((a) => a.code === code));
      if (missing !== undefined) throw new AppError(400, ErrorCode.validationFailed, `The add-on '${missing}' is not offered (addOns)`);
      const quote = quoteOrder(priceList, body);
      const customer = await customerOf(user.id);
      const order = await db.transaction(async (tx) => {
        const row = await insertOrder(
          tx,
          {
            userId: user.id,
            plan: plan.code,
            planName: plan.name,
            casesPerMonth: body.casesPerMonth,
            addOns: body.addOns,
            currency: priceList.currency,
            price: quote.price,
            paymentMethod: provider.method,
          },
          quote.items.map((item, position) => ({ ...item, position })),
        );
        const placed = presentOrder({ order: row, items: quote.items.map((item, position) => ({ ...item, position, orderId: row.id })), casesUsed: 0, rawDataCasesUsed: 0 });
        const pdf = await invoiceOf(placed, customer);
        await mailer.send(orderConfirmationMail({ email: customer.email, name: customer.firstName }, placed, provider.instructions(placed), { pdf, ordersUrl }));
        return placed;
      });
      return orderResponse(order, Messages.orderPlaced);
    },

    async listOrders(user: { id: string }): Promise<OrderListResponse> {
      await expireOrders(db, new Date());
      return { items: (await listOrdersOfUser(db, user.id)).map(presentOrder) };
    },

    async invoice(user: { id: string }, id: string): Promise<{ order: Order; pdf: Buffer }> {
      const order = await ownOrder(user, id);
      return { order, pdf: await invoiceOf(order, await customerOf(user.id)) };
    },

    /** The customer withdraws an order not yet paid. */
    async cancel(user: { id: string }, id: string): Promise<OrderResponse> {
      await ownOrder(user, id);
      await db.transaction(async (tx) => {
        const row = await lockOrder(tx, id);
        if (row === null) throw orderNotFound();
        if (row.status !== 'pending_payment') throw new AppError(409, ErrorCode.orderNotCancellable, Messages.orderNotCancellable);
        await cancelOrder(tx, id, new Date());
      });
      return orderResponse(await ownOrder(user, id), Messages.orderCancelled);
    },

    /** Operator: records the payment of a pending order; its month starts now. */
    async activate(id: string): Promise<Order> {
      const now = new Date();
      await db.transaction(async (tx) => {
        const row = await lockOrder(tx, id);
        if (row === null) throw new AppError(404, ErrorCode.orderNotFound, `No order with ID ${id}`);
        if (row.status !== 'pending_payment') {
          throw new AppError(409, ErrorCode.orderNotPending, `Order ${id} is ${row.status.replace('_', ' ')}; only an order pending payment can be activated`);
        }
        await activateOrder(tx, id, now, addOneMonth(now));
      });
      const found = await findOrder(db, id);
      if (found === null) throw orderNotFound();
      const order = presentOrder(found);
      const customer = await customerOf(found.order.userId);
      await mailer.send(orderActivatedMail({ email: customer.email, name: customer.firstName }, order, ordersUrl));
      return order;
    },

    async listByStatus(status: Order['status']): Promise<Order[]> {
      await expireOrders(db, new Date());
      return (await listOrdersByStatus(db, status)).map(presentOrder);
    },

    async billingStatus(user: { id: string }): Promise<BillingStatus> {
      if (!config.billing) return { billing: false, activeOrder: null, canUpload: true, canUploadFastq: true, casesRemaining: null };
      const now = new Date();
      await expireOrders(db, now);
      const active = (await activeOrdersOfUser(db, user.id, now)).map(presentOrder);
      const withCases = active.filter((o) => (o.usage?.casesRemaining ?? 0) > 0);
      return {
        billing: true,
        activeOrder: withCases[0] ?? active[0] ?? null,
        canUpload: withCases.length > 0,
        canUploadFastq: withCases.some((o) => o.addOns.includes('raw-data-analysis')),
        casesRemaining: withCases.reduce((sum, o) => sum + (o.usage?.casesRemaining ?? 0), 0),
      };
    },

    /** Refuses an upload before a byte is stored when billing is on and no active plan has a case left. */
    async assertCanUpload(user: { id: string }): Promise<void> {
      if (!config.billing) return;
      const status = await this.billingStatus(user);
      if (status.canUpload) return;
      if (status.activeOrder) throw new AppError(402, ErrorCode.planLimitReached, Messages.planLimitReached);
      throw new AppError(402, ErrorCode.noActivePlan, Messages.addProductToContinue);
    },

    /**
     * Counts a new case against the user's active plan, inside the transaction that creates the
     * case (so a refused or failed upload uses nothing). No-op with billing off. The order
     * ending first that has a case left (and the add-on, for FASTQ) is used.
     */
    async useCase(tx: Executor, userId: string, kase: { productId: string; isRawData: boolean }): Promise<void> {
      if (!config.billing) return;
      const candidates = await lockActiveOrdersOfUser(tx, userId, new Date());
      if (candidates.length === 0) throw new AppError(402, ErrorCode.noActivePlan, Messages.addProductToContinue);
      let sawAddOn = false;
      for (const order of candidates) {
        if (kase.isRawData && !order.addOns.includes('raw-data-analysis')) continue;
        sawAddOn = true;
        const used = await countUsage(tx, order.id);
        if (used.cases < order.casesPerMonth) {
          await insertUsage(tx, { orderId: order.id, productId: kase.productId, isRawData: kase.isRawData });
          return;
        }
      }
      if (kase.isRawData && !sawAddOn) throw new AppError(402, ErrorCode.addOnRequired, Messages.rawDataAddOnRequired);
      throw new AppError(402, ErrorCode.planLimitReached, Messages.planLimitReached);
    },
  };
}
