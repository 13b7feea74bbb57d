/**
 * Plans and orders over HTTP: the price list, placing an order (confirmation e-mail with the
 * invoice), the invoice PDF, cancelling, activation by the operator command, expiry, and what
 * /api/billing says with billing off and on. Two apps share one database: billing off (the
 * default) and RARELENS_BILLING=on.
 */
import { execFile, execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { ErrorCode, Messages, type BillingStatus, type Order, type OrderResponse, type PlansResponse } from '@rarelens/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureVcf } from '../../jobs/testing/fixture-vcf.ts';
import { bearer, signUpAndLogIn } from '../../testing/helpers.ts';
import { multipartBody } from '../../testing/multipart.ts';
import type { SmtpInbox } from '../../testing/smtp-inbox.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { createOrdersServiceFor } from './orders.module.ts';
import { addOneMonth } from './orders.service.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../../../..');
let inbox: SmtpInbox;
let off: TestApp;
let on: TestApp;
let app: FastifyInstance;
let lab: { email: string; token: string };
let other: { email: string; token: string };


beforeAll(async () => {
  // One set of secrets: a token issued by one app is accepted by the other.
  const secrets = { JWT_SECRET: 'orders-test-jwt-secret-0123456789abcdef', TOKEN_HASH_SECRET: 'orders-test-hash-secret-0123456789abcdef' };
  off = await createTestApp({ env: secrets });
  inbox = off.inbox;
  on = await createTestApp({ inbox, env: { ...secrets, RARELENS_BILLING: 'on' } });
  app = off.app;
  lab = await signUpAndLogIn(app, inbox);
  other = await signUpAndLogIn(app, inbox);
});

afterAll(async () => {
  await on.close();
  await off.close();
});

async function placeOrder(user: { token: string }, payload: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: '/api/orders', headers: bearer(user), payload });
}

async function billingOf(target: FastifyInstance, user: { token: string }): Promise<BillingStatus> {
  const res = await target.inject({ method: 'GET', url: '/api/billing', headers: bearer(user) });
  expect(res.statusCode).toBe(200);
  return res.json<BillingStatus>();
}

/** `rarelens orders …` against the test database and inbox, as an operator runs it. */
async function runOrdersCommand(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [path.join(repoRoot, 'apps/cli/bin/rarelens.js'), 'orders', ...args], {
      env: {
        ...process.env,
        DATABASE_URL: process.env.DATABASE_URL,
        RARELENS_DATA_DIR: off.dataDir,
        JWT_SECRET: off.app.config.jwtSecret,
        TOKEN_HASH_SECRET: off.app.config.tokenHashSecret,
        SMTP_URL: inbox.url,
        PUBLIC_URL: 'http://rarelens.test',
        LOG_LEVEL: 'silent',
      },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('GET /api/plans', () => {
  it('lists Basic, Standard and Advanced per case per month and the raw data add-on, without a session', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/plans' });
    expect(res.statusCode).toBe(200);
    const body = res.json<PlansResponse>();
    expect(body.currency).toBe('EUR');
    expect(body.billing).toBe(false);
    expect(body.plans.map((p) => [p.code, p.name, p.pricePerCase])).toEqual([
      ['basic', 'Basic', 4900],
      ['standard', 'Standard', 8900],
      ['advanced', 'Advanced', 14900],
    ]);
    expect(body.addOns).toEqual([expect.objectContaining({ code: 'raw-data-analysis', pricePerCase: 3500 })]);
    expect((await on.app.inject({ method: 'GET', url: '/api/plans' })).json<PlansResponse>().billing).toBe(true);
  });
});

describe('orders', () => {
  let order: Order;

  it('places an order pending payment, priced per case, and e-mails the confirmation with the invoice PDF', async () => {
    const res = await placeOrder(lab, { plan: 'standard', casesPerMonth: 3, addOns: ['raw-data-analysis'] });
    expect(res.statusCode).toBe(201);
    const body = res.json<OrderResponse>();
    expect(body.message).toBe(Messages.orderPlaced);
    order = body.order;
    // The names issue 18 gives clients: {id, price, status}.
    expect({ id: body.id, price: body.price, status: body.status }).toEqual({ id: order.id, price: 3 * 8900 + 3 * 3500, status: 'pending_payment' });
    expect(order).toMatchObject({
      plan: 'standard',
      planName: 'Standard',
      casesPerMonth: 3,
      addOns: ['raw-data-analysis'],
      price: 3 * 8900 + 3 * 3500,
      currency: 'EUR',
      status: 'pending_payment',
      paymentMethod: 'invoice',
      activatedAt: null,
      usage: null,
    });
    expect(order.reference).toMatch(/^RL-\d{6}$/);
    expect(order.items.map((i) => [i.kind, i.code, i.quantity, i.unitPrice, i.amount])).toEqual([
      ['plan', 'standard', 3, 8900, 26700],
      ['add-on', 'raw-data-analysis', 3, 3500, 10500],
    ]);

    const mail = await inbox.waitFor(lab.email, (m) => m.subject.includes(order.reference));
    expect(mail.subject).toBe(`Your RareLens order ${order.reference}`);
    expect(mail.text).toContain(`order ID ${order.id}`);
    expect(mail.text).toContain('Total: €372.00');
    expect(mail.text).toContain(`quoting the reference ${order.reference}`);
    expect(mail.raw).toMatch(new RegExp(`filename=("?)invoice-${order.reference}\\.pdf\\1`));
    expect(mail.raw).toContain('application/pdf');
  });

  it('lists the order and serves its invoice as a PDF with the items, total and payment reference', async () => {
    const list = await app.inject({ method: 'GET', url: '/api/orders', headers: bearer(lab) });
    expect(list.statusCode).toBe(200);
    expect(list.json<{ items: Order[] }>().items.map((o) => o.id)).toEqual([order.id]);

    const pdf = await app.inject({ method: 'GET', url: `/api/orders/${order.id}/invoice.pdf`, headers: bearer(lab) });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const file = path.join(off.dataDir, 'invoice.pdf');
    writeFileSync(file, pdf.rawPayload);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    expect(text).toContain('Invoice');
    expect(text).toContain(order.reference);
    expect(text).toContain(order.id);
    expect(text).toContain('Pending payment');
    expect(text).toMatch(/Standard plan, 3 cases per month.*3\s+€89\.00\s+€267\.00/);
    expect(text).toMatch(/Raw data analysis \(FASTQ to VCF\), up to 3 cases.*3\s+€35\.00\s+€105\.00/);
    expect(text).toContain('Total €372.00');
    expect(text).toContain(lab.email);
  });

  it("hides another user's order (404) and refuses every order route without a session (401)", async () => {
    for (const url of [`/api/orders/${order.id}`, `/api/orders/${order.id}/invoice.pdf`]) {
      const res = await app.inject({ method: 'GET', url, headers: bearer(other) });
      expect(res.statusCode).toBe(404);
      expect(res.json<{ code: string }>().code).toBe(ErrorCode.orderNotFound);
    }
    expect((await app.inject({ method: 'POST', url: `/api/orders/${order.id}/cancel`, headers: bearer(other) })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/api/orders', headers: bearer(other) })).json<{ items: Order[] }>().items).toEqual([]);
    for (const [method, url] of [
      ['GET', '/api/orders'],
      ['POST', '/api/orders'],
      ['GET', `/api/orders/${order.id}`],
      ['GET', `/api/orders/${order.id}/invoice.pdf`],
      ['POST', `/api/orders/${order.id}/cancel`],
      ['GET', '/api/billing'],
    ] as const) {
      expect((await app.inject({ method, url })).statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('refuses an unknown plan or add-on, a count outside 1..maxCasesPerMonth and a repeated add-on, naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ plan: 'gold', casesPerMonth: 1 }, 'plan'],
      [{ plan: 'basic', casesPerMonth: 0 }, 'casesPerMonth'],
      [{ plan: 'basic', casesPerMonth: 2.5 }, 'casesPerMonth'],
      [{ plan: 'basic', casesPerMonth: 1, addOns: ['priority'] }, 'addOns'],
      [{ plan: 'basic', casesPerMonth: 1, addOns: ['raw-data-analysis', 'raw-data-analysis'] }, 'addOns'],
    ];
    for (const [payload, field] of cases) {
      const res = await placeOrder(lab, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json<{ issues: { path: string[] }[] }>().issues[0]?.path[0]).toBe(field);
    }
    const tooMany = await placeOrder(lab, { plan: 'basic', casesPerMonth: 1001 });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json<{ message: string }>().message).toBe('At most 1000 cases per month can be ordered (casesPerMonth: 1001)');
  });

  it('cancels an order pending payment, and refuses to cancel it twice', async () => {
    const placed = (await placeOrder(lab, { plan: 'basic', casesPerMonth: 1 })).json<OrderResponse>().order;
    const cancel = await app.inject({ method: 'POST', url: `/api/orders/${placed.id}/cancel`, headers: bearer(lab) });
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json<OrderResponse>()).toMatchObject({ message: Messages.orderCancelled, order: { status: 'cancelled' } });
    const again = await app.inject({ method: 'POST', url: `/api/orders/${placed.id}/cancel`, headers: bearer(lab) });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toBe(Messages.orderNotCancellable);
  });
});

describe('billing and the operator command', () => {
  it('limits nothing with billing off; with billing on, nothing may be uploaded before an order is paid', async () => {
    expect(await billingOf(off.app, lab)).toEqual({ billing: false, activeOrder: null, canUpload: true, canUploadFastq: true, casesRemaining: null });
    expect(await billingOf(on.app, lab)).toMatchObject({ billing: true, activeOrder: null, canUpload: false, canUploadFastq: false, casesRemaining: 0 });
  });

  it('`rarelens orders activate` starts the month of a pending order, e-mails the customer, and refuses a second activation', async () => {
    const placed = (await placeOrder(lab, { plan: 'advanced', casesPerMonth: 2 })).json<OrderResponse>().order;
    const operator = createOrdersServiceFor({ config: on.app.config, database: on.app.database, mailer: on.app.mailer });
    expect((await operator.listByStatus('pending_payment')).map((o) => o.id)).toContain(placed.id);

    const activated = await runOrdersCommand(['activate', placed.id]);
    expect(activated.code, activated.stderr).toBe(0);
    expect(activated.stdout).toContain(`Activated ${placed.reference}`);
    await inbox.waitFor(lab.email, (m) => m.subject === `Your RareLens plan is active (${placed.reference})`);

    const status = await billingOf(on.app, lab);
    expect(status).toMatchObject({ canUpload: true, canUploadFastq: false, casesRemaining: 2, activeOrder: { id: placed.id, status: 'active' } });
    const usage = status.activeOrder?.usage;
    expect(usage).toMatchObject({ casesUsed: 0, casesRemaining: 2, rawDataCasesUsed: 0 });
    expect(usage?.periodEnd).toBe(addOneMonth(new Date(usage?.periodStart ?? '')).toISOString());

    const twice = await runOrdersCommand(['activate', placed.id]);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain(`Order ${placed.id} is active; only an order pending payment can be activated`);
  });

  it('counts uploads against the plan with billing on (FASTQ needs the add-on), and limits nothing with billing off', async () => {
    const upload = (target: FastifyInstance, user: { token: string }, caseId: string, genome: { name: string; content: string }) => {
      const { body, contentType } = multipartBody(
        { caseId, gender: 'female', symptoms: 'Broad thumbs', hpoTerms: JSON.stringify(['HP:0011304']), assembly: 'auto' },
        [{ field: 'genomeFile', ...genome }],
      );
      return target.inject({ method: 'POST', url: '/api/products', headers: { ...bearer(user), 'content-type': contentType }, payload: body });
    };
    const vcf = { name: 'case.vcf', content: buildFixtureVcf(50, ['FGFR2']) };
    const fastq = { name: 'reads.fastq', content: '@r1\nACGTACGTACGTACGTACGT\n+\nIIIIIIIIIIIIIIIIIIII\n' };
    const casesOf = async (user: { token: string }) =>
      (await app.inject({ method: 'GET', url: '/api/products', headers: bearer(user) })).json<{ items: { caseId: string }[] }>().items.map((c) => c.caseId);

    // Billing off: no plan needed.
    const free = await upload(off.app, other, 'BILLING-OFF', vcf);
    expect(free.statusCode, free.body).toBe(202);
    // Billing on, no plan: refused before anything is stored, with the spec's toast text.
    const refused = await upload(on.app, other, 'BILLING-NO-PLAN', vcf);
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toMatchObject({ code: ErrorCode.noActivePlan, message: Messages.addProductToContinue });
    expect(await casesOf(other)).not.toContain('BILLING-NO-PLAN');

    // The lab's active plan (2 cases, no add-on, from the test above): FASTQ is refused, VCFs use it up.
    expect(await billingOf(on.app, lab)).toMatchObject({ casesRemaining: 2, canUploadFastq: false });
    const raw = await upload(on.app, lab, 'BILLING-FASTQ', fastq);
    expect(raw.statusCode, raw.body).toBe(402);
    expect(raw.json()).toMatchObject({ code: ErrorCode.addOnRequired, message: Messages.rawDataAddOnRequired });
    expect((await upload(on.app, lab, 'BILLING-1', vcf)).statusCode).toBe(202);
    expect(await billingOf(on.app, lab)).toMatchObject({ casesRemaining: 1, canUpload: true });
    expect((await upload(on.app, lab, 'BILLING-2', vcf)).statusCode).toBe(202);
    expect(await billingOf(on.app, lab)).toMatchObject({ casesRemaining: 0, canUpload: false });
    const over = await upload(on.app, lab, 'BILLING-3', vcf);
    expect(over.statusCode).toBe(402);
    expect(over.json()).toMatchObject({ code: ErrorCode.planLimitReached, message: Messages.planLimitReached });
    const cases = await casesOf(lab);
    expect(cases).toEqual(expect.arrayContaining(['BILLING-1', 'BILLING-2']));
    expect(cases).not.toContain('BILLING-3');
    expect(cases).not.toContain('BILLING-FASTQ');
  });

  it('an active order whose month is over is expired and no longer allows uploads', async () => {
    await on.app.database.db.execute(sql`update orders set expires_at = now() - interval '1 second', activated_at = now() - interval '1 month' where status = 'active'`);
    expect(await billingOf(on.app, lab)).toMatchObject({ canUpload: false, casesRemaining: 0, activeOrder: null });
    const list = (await app.inject({ method: 'GET', url: '/api/orders', headers: bearer(lab) })).json<{ items: Order[] }>().items;
    expect(list.filter((o) => o.status === 'expired')).toHaveLength(1);
  });
});

describe('addOneMonth', () => {
  it('keeps the day of the month, or takes the last day of a shorter month', () => {
    expect(addOneMonth(new Date('2026-01-15T10:00:00Z')).toISOString()).toBe('2026-02-15T10:00:00.000Z');
    expect(addOneMonth(new Date('2026-01-31T10:00:00Z')).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(addOneMonth(new Date('2028-01-31T00:00:00Z')).toISOString()).toBe('2028-02-29T00:00:00.000Z');
    expect(addOneMonth(new Date('2026-12-31T23:59:59Z')).toISOString()).toBe('2027-01-31T23:59:59.000Z');
  });
});
