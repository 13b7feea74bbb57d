import {
  formatMoney,
  OrderStatusLabels,
  quoteOrder,
  type AddOnCode,
  type BillingStatus,
  type Order,
  type PlanCode,
  type PlansResponse,
} from '@rarelens/contract';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/button.tsx';
import { Alert, Card, EmptyState, PageHeader } from '../../components/card.tsx';
import { TableCard } from '../../components/table-card.tsx';
import { Checkbox, FormField, Input } from '../../components/form.tsx';
import { ReportIcon } from '../../components/icons.tsx';
import { PageSpinner } from '../../components/spinner.tsx';
import { toast, toastError } from '../../components/toaster.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { cn } from '../../lib/cn.ts';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { saveFile } from '../../lib/download.ts';
import { formatDate } from '../../lib/format.ts';
import { ordersApi, useBilling, useCreateOrder, useOrders, usePlans } from './orders.api.ts';

/** What the user may still upload this month. */
function RemainingCases({ billing }: { billing: BillingStatus }) {
  if (!billing.billing) {
    return <Alert>Billing is off on this installation: uploads are not limited by a plan.</Alert>;
  }
  const order = billing.activeOrder;
  if (order === null) {
    return <Alert tone="error">No active plan: order a plan below to upload cases.</Alert>;
  }
  return (
    <Alert tone="success">
      <span data-testid="remaining-cases">
        {billing.casesRemaining} of {order.casesPerMonth} cases remaining
      </span>{' '}
      in your {order.planName} plan until {order.expiresAt ? formatDate(order.expiresAt) : '—'}
      {order.addOns.includes('raw-data-analysis') ? ', raw data analysis (FASTQ) included.' : '.'}
    </Alert>
  );
}

function OrderForm({ list }: { list: PlansResponse }) {
  const [plan, setPlan] = useState<PlanCode>(list.plans.find((p) => p.isFeatured)?.code ?? list.plans[0]!.code);
  const [cases, setCases] = useState('10');
  const [addOns, setAddOns] = useState<AddOnCode[]>([]);
  const create = useCreateOrder();
  const casesPerMonth = Number(cases);
  const isValid = Number.isInteger(casesPerMonth) && casesPerMonth >= 1 && casesPerMonth <= list.maxCasesPerMonth;
  const quote = isValid ? quoteOrder(list, { plan, casesPerMonth, addOns }) : null;

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!isValid) return;
    create.mutate({ plan, casesPerMonth, addOns }, { onSuccess: (r) => toast.success(r.message), onError: toastError });
  }

  return (
    <Card className="p-5">
      <form onSubmit={handleSubmit} noValidate aria-label="Order a plan" className="flex flex-col gap-5">
        <div role="radiogroup" aria-label="Plan" className="grid gap-3 sm:grid-cols-3">
          {list.plans.map((p) => (
            <label
              key={p.code}
              className={cn(
                'flex cursor-pointer flex-col gap-1 rounded-xl border p-4 transition-colors',
                plan === p.code ? 'border-accent-500 bg-accent-50' : 'border-ink-200 hover:border-ink-300',
              )}
            >
              <input type="radio" name="plan" value={p.code} checked={plan === p.code} onChange={() => setPlan(p.code)} className="sr-only" />
              <span className="font-semibold text-ink-900">{p.name}</span>
              <span className="text-sm text-ink-700">{formatMoney(p.pricePerCase, list.currency)} per case per month</span>
              <span className="text-xs text-ink-500">{p.summary}</span>
            </label>
          ))}
        </div>
        <FormField
          label="Cases per month"
          error={isValid ? undefined : `Between 1 and ${list.maxCasesPerMonth} cases`}
          className="max-w-xs"
        >
          <Input type="number" min={1} max={list.maxCasesPerMonth} step={1} value={cases} onChange={(e) => setCases(e.target.value)} />
        </FormField>
        {list.addOns.map((a) => (
          <label key={a.code} className="flex items-start gap-3 text-sm">
            <Checkbox
              checked={addOns.includes(a.code)}
              onCheckedChange={(on) => setAddOns((prev) => (on ? [...prev, a.code] : prev.filter((c) => c !== a.code)))}
              aria-label={a.name}
            />
            <span>
              <span className="font-medium text-ink-900">{a.name}</span> — {formatMoney(a.pricePerCase, list.currency)} per case
              <span className="block text-xs text-ink-500">{a.description}</span>
            </span>
          </label>
        ))}
        <div className="flex flex-wrap items-center justify-between gap-3 border-t border-ink-100 pt-4">
          <p className="text-sm text-ink-700">
            Total per month: <strong data-testid="order-total">{quote ? formatMoney(quote.price, list.currency) : '—'}</strong>
            <span className="block text-xs text-ink-500">Paid by invoice (bank transfer); the plan starts when the payment is received.</span>
          </p>
          <Button type="submit" disabled={!isValid} isLoading={create.isPending} data-testid="place-order">
            Order
          </Button>
        </div>
      </form>
    </Card>
  );
}

function OrderList({ orders }: { orders: Order[] }) {
  const invoice = useMutation({ mutationFn: ordersApi.invoice, onSuccess: saveFile, onError: toastError });
  if (orders.length === 0) {
    return (
      <EmptyState icon={<ReportIcon />} title="No orders yet">
        Your orders and their invoices will be listed here.
      </EmptyState>
    );
  }
  return (
    <TableCard
      testId="order-table"
      headers={['Order', 'Items', 'Price', 'Status', 'Cases', { label: <span className="sr-only">Invoice</span> }]}
    >
      {orders.map((o) => (
        <tr key={o.id} data-testid="order-row" data-order-id={o.id} className="border-t border-ink-100 align-top">
          <td className="px-4 py-3">
            <p className="font-medium text-ink-900">{o.reference}</p>
            <p className="text-xs text-ink-500">{formatDate(o.createdAt)}</p>
          </td>
          <td className="px-4 py-3 text-ink-700">
            {o.items.map((i) => (
              <p key={i.code}>{i.description}</p>
            ))}
          </td>
          <td className="px-4 py-3 whitespace-nowrap">{formatMoney(o.price, o.currency)}</td>
          <td className="px-4 py-3" data-testid="order-status">{OrderStatusLabels[o.status]}</td>
          <td className="px-4 py-3 text-ink-700">
            {o.usage ? `${o.usage.casesRemaining} of ${o.casesPerMonth} remaining` : `${o.casesPerMonth} per month`}
          </td>
          <td className="px-4 py-3 text-right">
            <Button
              variant="outline"
              size="sm"
              isLoading={invoice.isPending && invoice.variables === o.id}
              onClick={() => invoice.mutate(o.id)}
              data-testid="download-invoice"
            >
              Invoice
            </Button>
          </td>
        </tr>
      ))}
    </TableCard>
  );
}

/** /orders: plans and add-on, ordering, the user's orders with invoices, remaining cases. */
export function OrdersPage() {
  useDocumentTitle('Orders');
  const plans = usePlans();
  const orders = useOrders();
  const billing = useBilling();
  return (
    <div className="flex max-w-5xl flex-col gap-6">
      <PageHeader title="Orders" description="Plans priced per case per month, the raw data analysis add-on, your orders and invoices." />
      {billing.data ? <RemainingCases billing={billing.data} /> : null}
      <section aria-labelledby="order-plan" className="flex flex-col gap-3">
        <h2 id="order-plan" className="text-base font-semibold text-ink-900">Order a plan</h2>
        {plans.isPending ? <PageSpinner label="Loading plans" /> : plans.isError ? <Alert tone="error">{errorMessage(plans.error)}</Alert> : <OrderForm list={plans.data} />}
      </section>
      <section aria-labelledby="my-orders" className="flex flex-col gap-3">
        <h2 id="my-orders" className="text-base font-semibold text-ink-900">My orders</h2>
        {orders.isPending ? <PageSpinner label="Loading orders" /> : orders.isError ? <Alert tone="error">{errorMessage(orders.error)}</Alert> : <OrderList orders={orders.data} />}
      </section>
    </div>
  );
}
