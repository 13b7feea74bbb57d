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
import { parseCommandArgs, runCommand, UsageError } from '../args.ts';

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

/** What to do: list the orders with a status, or activate one order. */
type Action = { kind: 'list'; status: OrderStatus } | { kind: 'activate'; orderId: string };

function parseOrdersArgs(argv: readonly string[]): Action {
  const [action, ...rest] = argv;
  if (action === 'list') {
    const { values } = parseCommandArgs(rest, { options: { status: { type: 'string' } } });
    if (values.status === undefined) return { kind: 'list', status: 'pending_payment' };
    const parsed = OrderStatus.safeParse(values.status);
    if (!parsed.success) throw new UsageError(`--status must be one of ${OrderStatus.options.join(', ')} (got '${values.status}')`);
    return { kind: 'list', status: parsed.data };
  }
  if (action === 'activate') {
    const { positionals } = parseCommandArgs(rest, { options: {}, allowPositionals: true });
    const [orderId] = positionals;
    if (orderId === undefined || positionals.length !== 1 || !UUID.test(orderId)) throw new UsageError("activate needs exactly one ORDER_ID (a UUID, as in 'rarelens orders list')");
    return { kind: 'activate', orderId };
  }
  throw new UsageError(action === undefined ? 'missing action (list or activate)' : `unknown action '${action}' (list or activate)`);
}

export function run(argv: string[]): Promise<number> {
  return runCommand('orders', USAGE, argv, () => orders(parseOrdersArgs(argv)));
}

async function orders(action: Action): Promise<number> {
  const config = loadConfig(process.env);
  const logger = pino({ level: process.env.LOG_LEVEL ?? 'warn' });
  const database = await createDatabase(config);
  const mailer = createMailer(config, logger);
  try {
    const service = createOrdersServiceFor({ config, database, mailer });
    if (action.kind === 'activate') {
      const order = await service.activate(action.orderId);
      console.log(`Activated ${order.reference} (${order.id}): ${order.planName}, ${order.casesPerMonth} cases until ${order.expiresAt ?? '?'}`);
    } else {
      for (const order of await service.listByStatus(action.status)) console.log(describe(order));
    }
    return 0;
  } finally {
    mailer.close();
    await database.close();
  }
}
