/** The e-mails of the order flow: confirmation with the invoice, and activation. */
import { formatMoney, type Order } from '@rarelens/contract';
import { escapeHtml, personalMail } from '../../mail/layout.ts';
import type { MailMessage } from '../../mail/mailer.ts';

export function orderConfirmationMail(
  to: { email: string; name: string },
  order: Order,
  instructions: string[],
  invoice: { pdf: Buffer; ordersUrl: string },
): MailMessage {
  const subject = `Your RareLens order ${order.reference}`;
  const lines = order.items.map((i) => `${i.description}: ${formatMoney(i.amount, order.currency)}`);
  const total = `Total: ${formatMoney(order.price, order.currency)}`;
  return personalMail(
    to,
    subject,
    {
      text: [`Thank you for your order ${order.reference} (order ID ${order.id}).`, '', ...lines, total, '', ...instructions, '', `The invoice is attached. Your orders: ${invoice.ordersUrl}`],
      html: [
        `<p>Thank you for your order <strong>${escapeHtml(order.reference)}</strong> (order ID ${escapeHtml(order.id)}).</p>`,
        `<ul>${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>`,
        `<p><strong>${escapeHtml(total)}</strong></p>`,
        ...instructions.map((l) => `<p>${escapeHtml(l)}</p>`),
        `<p>The invoice is attached. <a href="${escapeHtml(invoice.ordersUrl)}">Your orders</a></p>`,
      ],
    },
    {
      attachments: [{ filename: `invoice-${order.reference}.pdf`, content: invoice.pdf, contentType: 'application/pdf' }],
      localHint: `order ${order.reference} placed for ${to.email}`,
    },
  );
}

export function orderActivatedMail(to: { email: string; name: string }, order: Order, ordersUrl: string): MailMessage {
  const subject = `Your RareLens plan is active (${order.reference})`;
  const until = order.expiresAt?.slice(0, 10) ?? '';
  const body = `Your payment for order ${order.reference} has been received. Your ${order.planName} plan with ${order.casesPerMonth} cases is active until ${until}.`;
  return personalMail(to, subject, {
    text: [body, '', `Your orders: ${ordersUrl}`],
    html: [`<p>${escapeHtml(body)}</p>`, `<p><a href="${escapeHtml(ordersUrl)}">Your orders</a></p>`],
  });
}
