/** The only way an order leaves the server (CONVENTIONS §2: a whitelist of fields). */
import { AddOnCode, PlanCode, type Order } from '@rarelens/contract';
import type { OrderWithItems } from './orders.repository.ts';

/** RL-000042: the reference quoted on the invoice and the bank transfer. */
export function orderReference(number: number): string {
  return `RL-${String(number).padStart(6, '0')}`;
}

export function presentOrder({ order, items, casesUsed, rawDataCasesUsed }: OrderWithItems): Order {
  const { activatedAt, expiresAt } = order;
  return {
    id: order.id,
    reference: orderReference(order.number),
    plan: PlanCode.parse(order.plan),
    planName: order.planName,
    casesPerMonth: order.casesPerMonth,
    addOns: order.addOns.map((code) => AddOnCode.parse(code)),
    items: items.map((i) => ({
      kind: i.kind,
      code: i.code,
      description: i.description,
      quantity: i.quantity,
      unitPrice: i.unitPrice,
      amount: i.amount,
    })),
    price: order.price,
    currency: order.currency,
    status: order.status,
    paymentMethod: order.paymentMethod,
    createdAt: order.createdAt.toISOString(),
    activatedAt: order.activatedAt?.toISOString() ?? null,
    expiresAt: order.expiresAt?.toISOString() ?? null,
    cancelledAt: order.cancelledAt?.toISOString() ?? null,
    usage:
      order.status === 'active' && activatedAt !== null && expiresAt !== null
        ? {
            periodStart: activatedAt.toISOString(),
            periodEnd: expiresAt.toISOString(),
            casesUsed,
            casesRemaining: Math.max(0, order.casesPerMonth - casesUsed),
            rawDataCasesUsed,
          }
        : null,
  };
}
