/**
 * rarelens orders: the operator's side of the offline invoice / bank-transfer payment.
 *
 *   rarelens orders list [--status pending_payment|active|cancelled|expired]
 *   rarelens orders activate ORDER_ID      record the payment: the plan's month starts now
 *
 * Uses the server's configuration (DATABASE_URL or the embedded database in RARELENS_DATA_DIR,
 * SMTP_URL, PUBLIC_URL, RARELENS_PRICE_LIST): run it where the server runs. With the embedded
 * database (PGlite, single process) stop the server first.
 */
import { formatMoney, OrderStatus, OrderStatusLabels, type Order } from '@rarelens/contract';
import { createDatabase, createMailer, createOrdersServiceFor, loadConfig } from '@rarelens/server';
import pino from 'pino';

const USAGE = `Usage:
  rarelens orders list [--status STATUS]   orders with that status (default pending_payment)
  rarelens orders activate ORDER_ID        record the bank transfer of a pending order and start its month
STATUS: ${OrderStatus.options.join(', ')}`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function describe(order: Order): string {
  return [
    order.id,
    order.reference,
    OrderStatusLabels[order.status],
    `${order.planName} × ${order.casesPerMonth}`,
    order.addOns.join('+') || '-',
    formatMoney(order.price, order.currency),
    order.createdAt.slice(0, 10),
    order.expiresAt === null ? '' : `until ${order.expiresAt.slice(0, 10)}`,
  ].join('\t');
}

export async function run(args: string[]): Promise<number> {
  const [action, ...rest] = args;
  let status: OrderStatus = 'pending_payment';
  let orderId: string | undefined;
  if (action === 'list') {
    if (rest.length > 0) {
      if (rest[0] !== '--status' || rest.length !== 2) {
        console.error(`rarelens orders list: unexpected ${rest.join(' ')}\n\n${USAGE}`);
        return 2;
      }
      const parsed = OrderStatus.safeParse(rest[1]);
      if (!parsed.success) {
        console.error(`rarelens orders list: --status must be one of ${OrderStatus.options.join(', ')} (got '${rest[1]}')`);
        return 2;
      }
      status = parsed.data;
    }
  } else if (action === 'activate') {
    orderId = rest[0];
    if (orderId === undefined || rest.length !== 1 || !UUID.test(orderId)) {
      console.error(`rarelens orders activate: needs exactly one ORDER_ID (a UUID, as in 'rarelens orders list')\n\n${USAGE}`);
      return 2;
    }
  } else {
    console.error(action === undefined || action === '--help' ? USAGE : `rarelens orders: unknown action '${action}'\n\n${USAGE}`);
    return action === '--help' ? 0 : 2;
  }

  const config = loadConfig(process.env);
  const logger = pino({ level: process.env.LOG_LEVEL ?? 'warn' });
  const database = await createDatabase(config);
  const mailer = createMailer(config, logger);
  try {
    const orders = createOrdersServiceFor({ config, database, mailer });
    if (orderId !== undefined) {
      const order = await orders.activate(orderId);
      console.log(`Activated ${order.reference} (${order.id}): ${order.planName}, ${order.casesPerMonth} cases until ${order.expiresAt ?? '?'}`);
    } else {
      for (const order of await orders.listByStatus(status)) console.log(describe(order));
    }
    return 0;
  } finally {
    mailer.close();
    await database.close();
  }
}
