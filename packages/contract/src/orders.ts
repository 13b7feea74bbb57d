/**
 * Plans, add-ons and orders (spec §1 Packages, §3 Order): GET /api/plans, POST/GET /api/orders,
 * GET /api/orders/:id/invoice.pdf and GET /api/billing (what the signed-in user may upload).
 * Amounts are integers in the currency's minor unit (cents) so totals never round.
 */
import { z } from 'zod';

export const PlanCodes = ['basic', 'standard', 'advanced'] as const;
export const PlanCode = z.enum(PlanCodes, { error: `Must be one of ${PlanCodes.join(', ')}` });
export type PlanCode = z.infer<typeof PlanCode>;

/** Raw data analysis (FASTQ to VCF) is the one add-on of the spec, priced per case. */
export const AddOnCodes = ['raw-data-analysis'] as const;
export const AddOnCode = z.enum(AddOnCodes, { error: `Must be one of ${AddOnCodes.join(', ')}` });
export type AddOnCode = z.infer<typeof AddOnCode>;

export const OrderStatuses = ['pending_payment', 'active', 'cancelled', 'expired'] as const;
export const OrderStatus = z.enum(OrderStatuses);
export type OrderStatus = z.infer<typeof OrderStatus>;

/** What the UI shows for each order status. */
export const OrderStatusLabels: Record<OrderStatus, string> = {
  pending_payment: 'Pending payment',
  active: 'Active',
  cancelled: 'Cancelled',
  expired: 'Expired',
};

const MinorUnits = z.number().int().min(0);

export const Plan = z.object({
  code: PlanCode,
  name: z.string().min(1),
  summary: z.string(),
  /** Price per case per month, in minor units. */
  pricePerCase: MinorUnits,
  features: z.array(z.string()),
  isFeatured: z.boolean().default(false),
});
export type Plan = z.infer<typeof Plan>;

export const AddOn = z.object({
  code: AddOnCode,
  name: z.string().min(1),
  description: z.string(),
  /** Price per case, in minor units. */
  pricePerCase: MinorUnits,
});
export type AddOn = z.infer<typeof AddOn>;

/** The price list (RARELENS_PRICE_LIST overrides the defaults documented in the README). */
export const PriceList = z
  .object({
    /** ISO 4217 code, e.g. EUR. */
    currency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as EUR'),
    /** Orders are for 1..maxCasesPerMonth cases per month. */
    maxCasesPerMonth: z.number().int().min(1).max(100_000),
    plans: z.array(Plan).min(1),
    addOns: z.array(AddOn),
    /** Printed at the top of every invoice: the issuer's name, address, tax number. */
    invoiceIssuer: z.array(z.string()).min(1).default(['RareLens']),
    /** How to pay by bank transfer (account holder, IBAN, BIC), printed on the invoice and the e-mail. */
    bankTransfer: z.array(z.string()).default([]),
    /** Days to pay an invoice. */
    paymentTermDays: z.number().int().min(0).max(365).default(14),
    /** Notes under the total (taxes, terms). */
    invoiceNotes: z.array(z.string()).default(['Prices exclude VAT and other applicable taxes.']),
  })
  .superRefine((list, ctx) => {
    for (const [key, codes] of [
      ['plans', list.plans.map((p) => p.code)],
      ['addOns', list.addOns.map((a) => a.code)],
    ] as const) {
      const seen = new Set<string>();
      codes.forEach((code, index) => {
        if (seen.has(code)) ctx.addIssue({ code: 'custom', path: [key, index, 'code'], message: `duplicate code ${code}` });
        seen.add(code);
      });
    }
  });
export type PriceList = z.infer<typeof PriceList>;
export type PriceListInput = z.input<typeof PriceList>;

/** GET /api/plans */
export const PlansResponse = z.object({
  currency: z.string(),
  maxCasesPerMonth: z.number().int(),
  plans: z.array(Plan),
  addOns: z.array(AddOn),
  /** Whether uploads are limited by the active plan on this installation (RARELENS_BILLING). */
  billing: z.boolean(),
});
export type PlansResponse = z.infer<typeof PlansResponse>;

/** POST /api/orders */
export const CreateOrderBody = z.object({
  plan: PlanCode,
  casesPerMonth: z
    .number({ error: 'Must be a whole number of cases' })
    .int('Must be a whole number of cases')
    .min(1, 'At least 1 case per month'),
  addOns: z
    .array(AddOnCode)
    .max(AddOnCodes.length)
    .refine((codes) => new Set(codes).size === codes.length, 'An add-on may be ordered once')
    .default([]),
});
export type CreateOrderBody = z.input<typeof CreateOrderBody>;

export const OrderItem = z.object({
  kind: z.enum(['plan', 'add-on']),
  code: z.string(),
  description: z.string(),
  /** Cases covered by the item. */
  quantity: z.number().int(),
  unitPrice: MinorUnits,
  amount: MinorUnits,
});
export type OrderItem = z.infer<typeof OrderItem>;

/** The plan and its cases in the order's current month (null until the order is active). */
export const OrderUsage = z.object({
  periodStart: z.string(),
  periodEnd: z.string(),
  casesUsed: z.number().int(),
  casesRemaining: z.number().int(),
  /** FASTQ uploads used, when the raw data analysis add-on is part of the order. */
  rawDataCasesUsed: z.number().int(),
});
export type OrderUsage = z.infer<typeof OrderUsage>;

export const Order = z.object({
  id: z.string(),
  /** Human-readable reference, quoted on the invoice and the bank transfer. */
  reference: z.string(),
  plan: PlanCode,
  planName: z.string(),
  casesPerMonth: z.number().int(),
  addOns: z.array(AddOnCode),
  items: z.array(OrderItem),
  /** Total per month, in minor units of `currency`. */
  price: MinorUnits,
  currency: z.string(),
  status: OrderStatus,
  paymentMethod: z.literal('invoice'),
  createdAt: z.string(),
  activatedAt: z.string().nullable(),
  /** End of the paid month once active. */
  expiresAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  usage: OrderUsage.nullable(),
});
export type Order = z.infer<typeof Order>;

/**
 * POST /api/orders (and cancel): `{id, price, status}` as issue 18 names them for clients and
 * bars (price in minor units of the order's currency), plus the whole order and a message.
 */
export const OrderResponse = z.object({ id: z.string(), price: MinorUnits, status: OrderStatus, order: Order, message: z.string() });
export type OrderResponse = z.infer<typeof OrderResponse>;

export const OrderListResponse = z.object({ items: z.array(Order) });
export type OrderListResponse = z.infer<typeof OrderListResponse>;

/** GET /api/billing: whether the signed-in user may upload now, and why not. */
export const BillingStatus = z.object({
  billing: z.boolean(),
  /** The order whose cases the next upload uses (null: none, or billing off). */
  activeOrder: Order.nullable(),
  canUpload: z.boolean(),
  canUploadFastq: z.boolean(),
  /** Null when billing is off (nothing is limited). */
  casesRemaining: z.number().int().nullable(),
});
export type BillingStatus = z.infer<typeof BillingStatus>;

/** A priced order before it is stored: the same arithmetic for the Orders page and the server. */
export function quoteOrder(
  list: Pick<PriceList, 'plans' | 'addOns'>,
  order: { plan: PlanCode; casesPerMonth: number; addOns: readonly AddOnCode[] },
): { items: OrderItem[]; price: number } {
  const plan = list.plans.find((p) => p.code === order.plan);
  if (plan === undefined) throw new RangeError(`The price list has no plan '${order.plan}'`);
  const items: OrderItem[] = [
    {
      kind: 'plan',
      code: plan.code,
      description: `${plan.name} plan, ${order.casesPerMonth} ${order.casesPerMonth === 1 ? 'case' : 'cases'} per month`,
      quantity: order.casesPerMonth,
      unitPrice: plan.pricePerCase,
      amount: plan.pricePerCase * order.casesPerMonth,
    },
  ];
  for (const code of order.addOns) {
    const addOn = list.addOns.find((a) => a.code === code);
    if (addOn === undefined) throw new RangeError(`The price list has no add-on '${code}'`);
    items.push({
      kind: 'add-on',
      code: addOn.code,
      description: `${addOn.name}, up to ${order.casesPerMonth} ${order.casesPerMonth === 1 ? 'case' : 'cases'}`,
      quantity: order.casesPerMonth,
      unitPrice: addOn.pricePerCase,
      amount: addOn.pricePerCase * order.casesPerMonth,
    });
  }
  return { items, price: items.reduce((sum, item) => sum + item.amount, 0) };
}

/** "€1,234.50" for 123450 minor units (two-decimal currencies; locale en-US as the UI). */
export function formatMoney(minorUnits: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(minorUnits / 100);
}
