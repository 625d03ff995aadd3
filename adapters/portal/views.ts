import { Eta } from 'eta'
import { allowances } from './templates/allowances.js'
import { calls } from './templates/calls.js'
import { choose } from './templates/choose.js'
import { invoices } from './templates/invoices.js'
import { layout } from './templates/layout.js'
import { message } from './templates/message.js'
import { pay } from './templates/pay.js'
import { payments } from './templates/payments.js'
import { signIn } from './templates/sign-in.js'
import { summary } from './templates/summary.js'

const templates = { layout, signIn, choose, summary, invoices, calls, allowances, payments, pay, message } as const

/** A portal page's template name. */
export type View = Exclude<keyof typeof templates, 'layout'>

/**
 * The portal's templates, registered from code (`@name`) so that the package needs no template
 * files beside its JavaScript; every `<%= %>` is HTML-escaped.
 */
const eta = new Eta({ autoEscape: true, cache: true })
for (const [name, text] of Object.entries(templates)) eta.loadTemplate(`@${name}`, text)

/** Renders a page of the portal with its layout. */
export function renderView(view: View, data: Record<string, unknown>): string {
  return eta.render(`@${view}`, data)
}
