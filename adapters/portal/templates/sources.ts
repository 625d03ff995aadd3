import { allowances } from './allowances.js'
import { calls } from './calls.js'
import { choose } from './choose.js'
import { invoices } from './invoices.js'
import { layout } from './layout.js'
import { message } from './message.js'
import { pay } from './pay.js'
import { payments } from './payments.js'
import { signIn } from './sign-in.js'
import { summary } from './summary.js'

/** Every portal template's Eta source by name; `compiled.ts` holds them compiled (scripts/portal-templates.ts). */
export const templateSources = { layout, signIn, choose, summary, invoices, calls, allowances, payments, pay, message } as const

export type TemplateName = keyof typeof templateSources

/** Eta's settings for the portal: every `<%= %>` is HTML-escaped. */
export const etaConfig = { autoEscape: true, cache: true } as const
