import { FastResponse } from 'srvx'
import { itemActions } from '../../core/actions/action-table.js'
import { runItemAction } from '../../core/actions/item-actions.js'
import { customerCopy } from '../../core/documents/customer-copy.js'
import { displayDate, displayDuration, displayMoney, displayStamp } from '../../core/documents/display.js'
import { readInvoiceDocument } from '../../core/documents/read-invoice-document.js'
import { readInvoiceSources } from '../../core/documents/invoice-sources.js'
import { itemisedCallsCsv } from '../../core/delivery/calls-csv.js'
import { notFound } from '../../core/errors.js'
import type { Entities } from '../../core/fields/entity.js'
import { ZERO, type Money } from '../../core/money/money.js'
import { amountOutstanding, expireLinks, findPaymentLink } from '../../core/payments/payment-links.js'
import { offerByLoginFlags } from '../../core/portal/login-flags.js'
import { onlineBillTypeOf, onlineOffer, type OnlineOffer } from '../../core/portal/online-bill.js'
import { customerInvoices, customerPayments, hiddenCallNumbers, monthAllowances, nextInvoiceDate, ownInvoice, PAGE_ROWS, uninvoicedCalls } from '../../core/portal/portal-pages.js'
import type { PaymentLink } from '../../core/customers/side-effects.js'
import { renderInvoice } from '../documents/render-invoice.js'
import { DOCUMENT_CSP, page, pageHeaders, redirect, type PageRoute, type PortalOptions } from './portal-http.js'
import { signedIn, type Visit } from './portal-session.js'

type Invoice = Entities['invoices']

/** The pages of a signed-in customer (contract 14.3): only its own data; any other ID is 404. */
export function pageRoutes(o: PortalOptions): PageRoute[] {
  const ctx = o.platform
  const money = (visit: Visit, m: Money | null | undefined) => displayMoney((m ?? ZERO) as Money, visit.customer.currency ?? null)
  const invoiceRow = (visit: Visit, i: Invoice) => ({
    id: i.id,
    number: (i as { invoiceNumber?: string | null }).invoiceNumber ?? `Invoice ${i.id}`,
    date: displayDate(i.invoiceDate),
    total: money(visit, i.totalAmount as Money),
    status: i.status ?? 'Unpaid',
  })

  /** What the customer's onlineBillType offers of its invoices here (contract 14.2), less what its loginFlags take away. */
  const offerOf = (visit: Visit): OnlineOffer => offerByLoginFlags(onlineOffer(onlineBillTypeOf(visit.customer)), visit.customer)
  /** One of the customer's invoices, when its bill type offers `part`; otherwise 404, as another customer's invoice is. */
  const offered = async (visit: Visit, id: string, part: 'documents' | 'callsCsv'): Promise<Invoice> => {
    if (!offerOf(visit)[part]) throw notFound('invoice', id)
    return ownInvoice(ctx, visit.customer.id, id)
  }
  /** The invoice's document as an email would carry it: no itemised calls without consent. */
  const documentOf = async (visit: Visit, invoice: Invoice) => customerCopy(await readInvoiceDocument(ctx, invoice.id), visit.customer)

  /** The links of one of the customer's payment links still open (contract 15.1); null for any other. */
  const linksMade = async (visit: Visit, paymentLinkUUID: string): Promise<readonly PaymentLink[] | null> => {
    if (!/^[0-9a-f-]{36}$/i.test(paymentLinkUUID)) return null
    await expireLinks(ctx.store, ctx.clock, visit.customer.id)
    const made = await findPaymentLink(ctx.store, paymentLinkUUID)
    return made?.customerID === visit.customer.id && made.status === 'Open' ? ((made.links ?? []) as readonly PaymentLink[]) : null
  }

  /** The Pay now page: the amount outstanding, and the links once made. */
  const payPage = async (visit: Visit, links: readonly PaymentLink[] | null) => {
    const outstanding = await amountOutstanding(ctx.store, visit.customer.id)
    return { ...visit.layout('Pay now', 'pay'), outstanding: money(visit, outstanding), canPay: outstanding > 0n, links }
  }

  return [
    {
      method: 'GET',
      path: '/summary',
      handler: signedIn(o, 'summary', async (event, visit) => {
        const c = visit.customer
        // The last invoice shown, and the date the billing cycle counts from (suppressed invoices included).
        const [[last], lastInvoiced] = await Promise.all([customerInvoices(ctx, c.id), ctx.store.ledger.lastInvoiceDates([c.id])])
        const canPay = (ctx.presets.portalProfiles[c.portalCustomerProfile!] ?? []).length > 0
        // No link to an invoice's document on a portal without the invoices page: it would be a 404.
        const online = offerOf(visit)
        const offer = { ...online, documents: online.documents && visit.shows('invoices') }
        return page(event, 'summary', {
          ...visit.layout('Summary', 'summary'),
          balance: money(visit, c.balance as Money),
          overdue: money(visit, c.overdueAmount as Money),
          last: last && offer.listed ? invoiceRow(visit, last) : null,
          offer,
          nextInvoiceDate: displayDate(nextInvoiceDate(c, lastInvoiced.get(c.id), ctx.clock.today())),
          canPay,
        })
      }),
    },
    {
      method: 'GET',
      path: '/invoices',
      handler: signedIn(o, 'invoices', async (event, visit) => {
        const offer = offerOf(visit)
        const invoices = offer.listed ? (await customerInvoices(ctx, visit.customer.id)).map((i) => invoiceRow(visit, i)) : []
        return page(event, 'invoices', { ...visit.layout('Invoices', 'invoices'), invoices, offer })
      }),
    },
    {
      method: 'GET',
      path: '/invoices/:id',
      handler: signedIn(o, 'invoices', async (event, visit) => {
        const invoice = await offered(visit, event.context.params?.id ?? '', 'documents')
        const html = await renderInvoice(await documentOf(visit, invoice), 'html')
        return new FastResponse(html, { headers: { ...pageHeaders(event, DOCUMENT_CSP), 'content-type': 'text/html; charset=utf-8' } })
      }),
    },
    {
      method: 'GET',
      path: '/invoices/:id/pdf',
      handler: signedIn(o, 'invoices', async (event, visit) => {
        const invoice = await offered(visit, event.context.params?.id ?? '', 'documents')
        const pdf = await renderInvoice(await documentOf(visit, invoice), 'pdf')
        return new FastResponse(pdf as Uint8Array<ArrayBuffer>, {
          headers: { ...pageHeaders(event), 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="invoice-${invoice.id}.pdf"` },
        })
      }),
    },
    {
      method: 'GET',
      path: '/invoices/:id/csv',
      handler: signedIn(o, 'invoices', async (event, visit) => {
        const invoice = await offered(visit, event.context.params?.id ?? '', 'callsCsv')
        // The attachment an email of the CSV bill types carries (core/delivery/calls-csv.ts).
        // Less the calls of numbers whose flags hide them (core/portal/login-flags.ts); the document keeps them all.
        const [sources, hidden] = await Promise.all([readInvoiceSources(ctx.store, invoice.id), hiddenCallNumbers(ctx, visit.customer.id).then((ids) => new Set(ids))])
        const csv = itemisedCallsCsv({ numbers: sources.numbers, calls: sources.calls.filter((c) => !c.numberID || !hidden.has(c.numberID)) })
        return new FastResponse(csv, {
          headers: { ...pageHeaders(event), 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="invoice-${invoice.id}-calls.csv"` },
        })
      }),
    },
    {
      method: 'GET',
      path: '/calls',
      handler: signedIn(o, 'calls', async (event, visit) => {
        const { calls, total, more } = await uninvoicedCalls(ctx, visit.customer.id)
        const rows = calls.map(({ call, runningTotal }) => {
          const started = displayStamp(call.startTime ?? null)
          return {
            started: `${started.date} ${started.time}`,
            from: call.callingNumber ?? '',
            to: call.dialledNumber ?? '',
            duration: displayDuration(call.durationSeconds ?? 0),
            cost: money(visit, call.cost as Money),
            running: money(visit, runningTotal),
          }
        })
        return page(event, 'calls', { ...visit.layout('Calls not yet invoiced', 'calls'), calls: rows, total: money(visit, total), more, limit: PAGE_ROWS })
      }),
    },
    {
      method: 'GET',
      path: '/allowances',
      handler: signedIn(o, 'allowances', async (event, visit) => {
        const a = await monthAllowances(ctx, visit.customer.id, ctx.clock.now())
        const fmt = (n: number) => n.toLocaleString('en-GB', { maximumFractionDigits: 1 })
        return page(event, 'allowances', {
          ...visit.layout('Allowances this month', 'allowances'),
          rows: a.rows.map((r) => ({ pool: r.pool, plan: r.plan, minutes: fmt(r.minutes), used: fmt(r.usedMinutes), left: fmt(r.leftMinutes) })),
          minutes: fmt(a.minutes),
          used: fmt(a.usedMinutes),
          left: fmt(a.leftMinutes),
        })
      }),
    },
    {
      method: 'GET',
      path: '/payments',
      handler: signedIn(o, 'payments', async (event, visit) => {
        const payments = (await customerPayments(ctx, visit.customer.id)).map((p) => ({
          date: displayDate(p.transactionDate),
          description: p.description ?? 'Payment',
          amount: money(visit, -(p.amount as Money) as Money),
        }))
        return page(event, 'payments', { ...visit.layout('Payments', 'payments'), payments })
      }),
    },
    {
      method: 'GET',
      path: '/pay',
      // `?made=<paymentLinkUUID>`: where the form's POST sends the browser, to show the links it made.
      handler: signedIn(o, 'pay', async (event, visit) => page(event, 'pay', await payPage(visit, await linksMade(visit, event.url.searchParams.get('made') ?? '')))),
    },
    {
      method: 'POST',
      path: '/pay',
      handler: signedIn(
        o,
        'pay',
        async (event, visit) => {
          // A form from before the last payment: nothing to pay now, and no link for nothing.
          if ((await amountOutstanding(ctx.store, visit.customer.id)) <= 0n) return page(event, 'pay', await payPage(visit, null))
          // The action the API runs, recorded in history under the portal's actor.
          const result = (await runItemAction(ctx, ctx.resources.get('customers')!, itemActions.customers, visit.customer.id, 'generatePaymentLinks', () => ({}))) as {
            paymentLinkUUID: string
          }
          // Post/Redirect/Get: reloading the page shows these links again, it does not make more.
          return redirect(event, `/pay?made=${encodeURIComponent(result.paymentLinkUUID)}`)
        },
        true,
      ),
    },
  ]
}
