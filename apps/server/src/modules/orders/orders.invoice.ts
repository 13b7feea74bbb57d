/** The invoice of an order as a text-selectable A4 PDF (pdfkit). */
import PDFDocument from 'pdfkit';
import { formatMoney, OrderStatusLabels, type Order, type PriceList } from '@rarelens/contract';
import { collectPdf, registerFonts } from '../../pdf/pdf.ts';

export interface InvoiceParty {
  name: string;
  email: string;
  /** Address lines, as the user entered them in Account information. */
  address: string[];
}

const COLOR = { ink: '#1f2937', muted: '#6b7280', rule: '#d1d5db', accent: '#0f4c81' };
const MARGIN = 50;

function isoDate(value: string | Date): string {
  return (typeof value === 'string' ? value : value.toISOString()).slice(0, 10);
}

/** Renders the invoice of `order` for `customer`. */
export async function renderInvoicePdf(
  order: Order,
  customer: InvoiceParty,
  opts: { priceList: PriceList; instructions: string[]; dueDate: Date },
): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    info: { Title: `Invoice ${order.reference}`, Author: opts.priceList.invoiceIssuer[0] ?? 'RareLens', CreationDate: new Date(order.createdAt) },
    lang: 'en',
    displayTitle: true,
  });
  const finished = collectPdf(doc);
  const fonts = registerFonts(doc);
  const width = doc.page.width - 2 * MARGIN;
  const money = (minor: number) => formatMoney(minor, order.currency);

  doc.font(fonts.bold).fontSize(20).fillColor(COLOR.accent).text('Invoice', MARGIN, MARGIN);
  doc.font(fonts.regular).fontSize(9).fillColor(COLOR.ink);
  const top = doc.y + 8;
  const factsLeft = MARGIN + width * 0.45;
  doc.text(opts.priceList.invoiceIssuer.join('\n'), MARGIN, top, { width: width * 0.45 - 10 });
  const issuerBottom = doc.y;
  const facts: [string, string][] = [
    ['Invoice number', order.reference],
    ['Order ID', order.id],
    ['Date', isoDate(order.createdAt)],
    ['Due date', isoDate(opts.dueDate)],
    ['Status', OrderStatusLabels[order.status]],
  ];
  doc.y = top;
  for (const [label, value] of facts) {
    const y = doc.y;
    doc.font(fonts.bold).text(label, factsLeft, y, { width: 80 });
    // One line each (a UUID must not break at its hyphens).
    doc.font(fonts.regular).text(value, factsLeft + 80, y, { lineBreak: false });
    doc.x = MARGIN;
    doc.y = y + doc.currentLineHeight(true);
  }
  doc.y = Math.max(doc.y, issuerBottom) + 18;

  doc.font(fonts.bold).fontSize(10).text('Bill to', MARGIN, doc.y);
  doc.font(fonts.regular).fontSize(9).text([customer.name, ...customer.address, customer.email].filter((l) => l !== '').join('\n'));
  doc.moveDown(1.5);

  const columns = [
    { label: 'Description', width: width - 250, align: 'left' as const },
    { label: 'Cases', width: 50, align: 'right' as const },
    { label: 'Price per case', width: 100, align: 'right' as const },
    { label: 'Amount', width: 100, align: 'right' as const },
  ];
  const row = (cells: string[], font: string) => {
    const y = doc.y;
    let x = MARGIN;
    let bottom = y;
    cells.forEach((cell, i) => {
      const column = columns[i]!;
      doc.font(font).text(cell, x, y, { width: column.width, align: column.align });
      bottom = Math.max(bottom, doc.y);
      x += column.width;
    });
    doc.y = bottom + 4;
    doc.moveTo(MARGIN, doc.y).lineTo(MARGIN + width, doc.y).strokeColor(COLOR.rule).lineWidth(0.5).stroke();
    doc.y += 4;
  };
  row(columns.map((c) => c.label), fonts.bold);
  for (const item of order.items) {
    row([item.description, String(item.quantity), money(item.unitPrice), money(item.amount)], fonts.regular);
  }
  doc.font(fonts.bold).fontSize(11).text(`Total ${money(order.price)}`, MARGIN, doc.y + 4, { width, align: 'right' });
  doc.font(fonts.regular).fontSize(8).fillColor(COLOR.muted).text(opts.priceList.invoiceNotes.join('\n'), { width, align: 'right' });
  doc.moveDown(2);

  doc.font(fonts.bold).fontSize(10).fillColor(COLOR.ink).text('Payment', MARGIN, doc.y);
  doc.font(fonts.regular).fontSize(9).text(opts.instructions.join('\n'), { width });
  doc.end();
  return finished;
}
