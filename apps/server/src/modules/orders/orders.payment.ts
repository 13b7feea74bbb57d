/**
 * How an order gets paid. A provider turns a placed order into payment instructions and says
 * whether it is paid at once; the only provider today is the offline invoice / bank transfer
 * one (no network call): the order stays pending until an operator records the payment with
 * `rarelens orders activate ORDER_ID`. A card provider would implement the same interface.
 */
import { formatMoney, type Order, type PriceList } from '@rarelens/contract';

export interface PaymentProvider {
  readonly method: Order['paymentMethod'];
  /** Lines telling the customer how to pay `order` (invoice and confirmation e-mail). */
  instructions(order: Order): string[];
  /** Due date of the payment. */
  dueDate(order: Order): Date;
}

export function createInvoicePaymentProvider(priceList: PriceList): PaymentProvider {
  const dueDate = (order: Order) => new Date(Date.parse(order.createdAt) + priceList.paymentTermDays * 86_400_000);
  return {
    method: 'invoice',
    dueDate,
    instructions(order) {
      return [
        `Please pay ${formatMoney(order.price, order.currency)} by bank transfer by ${dueDate(order).toISOString().slice(0, 10)}, quoting the reference ${order.reference}.`,
        ...priceList.bankTransfer,
        'Your plan becomes active as soon as the payment is received; you will get an e-mail then.',
      ];
    },
  };
}
