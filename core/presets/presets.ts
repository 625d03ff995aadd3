import * as v from 'valibot'
import { defaultInvoiceMessages, defaultLists } from './default-presets.js'
import { discountPlansFile, mergeDiscountPlans, type DiscountPlanMaps } from './discount-plans.js'
import { engineLists } from './engine-lists.js'
import { mergeProductMaps, productMapsFile, type ProductMaps } from './product-maps.js'
import { carrierMapsFile, mergeCarrierMaps, type CarrierMaps } from './carrier-maps.js'
import { defaultSeller, SellerFile, type Seller } from './seller.js'
import { isSigningSecret, SIGNING_SECRET_RULE } from './signing-secret.js'
import { DEFAULT_INVOICE_NUMBER_FORMAT, invoiceNumberFormatProblem } from './invoice-number-format.js'
import { collectionsFile, defaultCollectionPresets, mergeCollections, type CollectionPresets } from './collections.js'
import { protectedActionsOf, unprotectedClassesOf } from './regulator-protection.js'
import { commissionProfilesFile, defaultCommissionPresets, mergeCommissionProfiles, type CommissionPresets } from './commission-profiles.js'
import { autoTopupThresholdsFile, mergeAutoTopupThresholds, type AutoTopupPresets } from './auto-topup-thresholds.js'
import { contractEndNoticeFile, mergeContractEndNotice, type ContractEndNoticePresets } from './contract-end-notice.js'

export const paymentLinkTypes = ['cardPayment', 'directDebitSetup'] as const
/** The kinds of payment link a provider can make. */
export type PaymentLinkType = (typeof paymentLinkTypes)[number]

/** A payment provider and the URL template of its links. */
export interface PaymentProvider {
  readonly name: string
  readonly label: string
  readonly type: PaymentLinkType
  /** `{paymentLinkUUID}`, `{accountNumber}`, `{customerID}`, `{amount}` (outstanding, `120.00`) are substituted. */
  readonly urlTemplate: string
  /** Signs the provider's callbacks (contract 15.1); without one its callbacks are all refused. */
  readonly callbackSecret?: string
}

export const portalPages = ['summary', 'invoices', 'calls', 'allowances', 'payments'] as const
/** The pages of the self-service portal a profile can offer (contract 14.3). */
export type PortalPage = (typeof portalPages)[number]

/** The platform's configured lists and the settings that go with them. */
export interface Presets extends ProductMaps, DiscountPlanMaps, CollectionPresets, CarrierMaps, CommissionPresets, AutoTopupPresets, ContractEndNoticePresets {
  readonly lists: Readonly<Record<string, readonly string[]>>
  /** VAT percentage of each `vatRates` name, as decimal text ("20"). */
  readonly vatRatePercents: Readonly<Record<string, string>>
  /** Link types each portal profile offers. */
  readonly portalProfiles: Readonly<Record<string, readonly PaymentLinkType[]>>
  /** Portal pages each profile shows (contract 14.3); a profile given as an array of link types shows every page. */
  readonly portalPages: Readonly<Record<string, readonly PortalPage[]>>
  readonly paymentProviders: readonly PaymentProvider[]
  /** Grace days after an invoice's due date by `paymentMethods` name (contract 10.3). */
  readonly paymentMethodGraceDays: Readonly<Record<string, number>>
  /** The text an invoice prints for each `invoiceMessages` name (contract 10.5); a name without one prints as itself. */
  readonly invoiceMessages: Readonly<Record<string, string>>
  /** Who issues the invoices (contract 14.1). */
  readonly seller: Seller
  /** How invoice numbers are written: `{yyyy}`, `{mm}`, `{seq:N}` (contract 14.1). */
  readonly invoiceNumberFormat: string
}

const defaultVat: Record<string, string> = {
  'Standard 20%': '20',
  'Reduced 5%': '5',
  'Zero Rated': '0',
  Exempt: '0',
  'Outside Scope': '0',
}

export const defaultPresets: Presets = {
  lists: defaultLists,
  vatRatePercents: defaultVat,
  portalProfiles: {
    'Standard Portal': ['cardPayment', 'directDebitSetup'],
    'Card Payments Only': ['cardPayment'],
    'Direct Debit Only': ['directDebitSetup'],
    'View Only': [],
  },
  portalPages: {},
  paymentProviders: [
    { name: 'stripe', label: 'Pay by card', type: 'cardPayment', urlTemplate: 'https://pay.example.com/card/{paymentLinkUUID}' },
    {
      name: 'gocardless',
      label: 'Set up a Direct Debit',
      type: 'directDebitSetup',
      urlTemplate: 'https://pay.example.com/dd/{paymentLinkUUID}',
    },
  ],
  // A Direct Debit is collected a few working days after the date it is due.
  paymentMethodGraceDays: { 'Direct Debit': 3 },
  invoiceMessages: defaultInvoiceMessages,
  seller: defaultSeller,
  invoiceNumberFormat: DEFAULT_INVOICE_NUMBER_FORMAT,
  ...defaultCollectionPresets,
  ...defaultCommissionPresets,
  ...mergeProductMaps({}, null, { ...defaultLists }),
  ...mergeCarrierMaps({}, null),
  ...mergeDiscountPlans({}, null, { ...defaultLists }),
  ...mergeAutoTopupThresholds({}, null, { ...defaultLists }),
  ...mergeContractEndNotice({}, null),
}

const nameList = v.array(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200)))

const PresetsFile = v.strictObject({
  /** Lists to replace whole. */
  lists: v.optional(v.record(v.string(), nameList)),
  /** Names to add to the default lists. */
  extend: v.optional(v.record(v.string(), nameList)),
  vatRatePercents: v.optional(v.record(v.string(), v.pipe(v.string(), v.regex(/^\d{1,3}(\.\d{1,4})?$/)))),
  /** name → link types, or name → {pages, paymentLinks} (contract 14.3). */
  portalProfiles: v.optional(
    v.record(
      v.string(),
      v.union([
        v.array(v.picklist(paymentLinkTypes)),
        v.strictObject({ pages: v.optional(v.array(v.picklist(portalPages))), paymentLinks: v.optional(v.array(v.picklist(paymentLinkTypes))) }),
      ]),
    ),
  ),
  paymentMethodGraceDays: v.optional(v.record(v.string(), v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(3650)))),
  /** Replaces the default messages; its names join the `invoiceMessages` list. */
  invoiceMessages: v.optional(v.record(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200)), v.pipe(v.string(), v.maxLength(2000)))),
  seller: v.optional(SellerFile),
  invoiceNumberFormat: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(100), v.check((f) => invoiceNumberFormatProblem(f) === null, 'must hold {seq} or {seq:N} once, and only the placeholders {yyyy}, {mm}, {seq:N}'))),
  paymentProviders: v.optional(
    v.array(
      v.strictObject({
        name: v.pipe(v.string(), v.minLength(1)),
        label: v.pipe(v.string(), v.minLength(1)),
        type: v.picklist(paymentLinkTypes),
        urlTemplate: v.pipe(v.string(), v.minLength(1)),
        callbackSecret: v.optional(v.pipe(v.string(), v.check(isSigningSecret, SIGNING_SECRET_RULE))),
      }),
    ),
  ),
  ...productMapsFile,
  ...carrierMapsFile,
  ...discountPlansFile,
  ...collectionsFile,
  ...commissionProfilesFile,
  ...autoTopupThresholdsFile,
  ...contractEndNoticeFile,
})

/** What a presets file may hold, as `mergePresets` takes it (the library's `presets` option). */
export type PresetsFileInput = v.InferInput<typeof PresetsFile>

/**
 * Merges the content of a presets file over the defaults. Throws with every problem listed
 * when the file is malformed or names a list the platform does not have.
 */
export function mergePresets(content: unknown, base: Presets = defaultPresets): Presets {
  const parsed = v.safeParse(PresetsFile, content)
  if (!parsed.success) {
    const problems = parsed.issues.map((i) => `${v.getDotPath(i) ?? '(root)'}: ${i.message}`)
    throw new Error(`presets file is invalid: ${problems.join('; ')}`)
  }
  const file = parsed.output
  const lists: Record<string, readonly string[]> = { ...base.lists }
  for (const [group, entries] of [
    ['lists', file.lists],
    ['extend', file.extend],
  ] as const) {
    for (const [name, values] of Object.entries(entries ?? {})) {
      if (!(name in base.lists)) throw new Error(`presets file: ${group}.${name} is not a preset list`)
      lists[name] = group === 'lists' ? unique(values) : unique([...base.lists[name], ...values])
    }
  }
  const presets: Presets = {
    lists,
    vatRatePercents: { ...base.vatRatePercents, ...file.vatRatePercents },
    ...portalProfilesOf(file.portalProfiles, base),
    paymentProviders: file.paymentProviders ?? base.paymentProviders,
    paymentMethodGraceDays: { ...base.paymentMethodGraceDays, ...file.paymentMethodGraceDays },
    invoiceMessages: file.invoiceMessages ?? base.invoiceMessages,
    seller: file.seller ?? base.seller,
    invoiceNumberFormat: file.invoiceNumberFormat ?? base.invoiceNumberFormat,
    ...mergeCollections(file, base),
    ...mergeCommissionProfiles(file, base),
    ...mergeProductMaps(file, base, lists, new Set([...Object.keys(file.lists ?? {}), ...Object.keys(file.extend ?? {})])),
    ...mergeCarrierMaps(file, base),
    ...mergeDiscountPlans(file, base, lists, new Set([...Object.keys(file.lists ?? {}), ...Object.keys(file.extend ?? {})])),
    ...mergeAutoTopupThresholds(file, base, lists, file.lists?.autoTopupProfiles !== undefined || file.extend?.autoTopupProfiles !== undefined),
    ...mergeContractEndNotice(file, base),
  }
  // A map's names are names of its list (contract 10): a customer may choose any of them.
  lists.invoiceMessages = unique([...(lists.invoiceMessages ?? []), ...Object.keys(presets.invoiceMessages)])
  // A dunning profile without an entry would do nothing silently: the list is the map's names unless a file lists more.
  const listsProfiles = file.lists?.dunningProfiles ?? file.extend?.dunningProfiles
  lists.dunningProfiles = unique([...(listsProfiles ? lists.dunningProfiles : []), ...Object.keys(presets.dunningProfiles)])
  // Likewise a commission profile (contract 16.3): the list is the map's names unless a file lists more.
  const listsCommission = file.lists?.commissionProfiles ?? file.extend?.commissionProfiles
  lists.commissionProfiles = unique([...(listsCommission ? lists.commissionProfiles : []), ...Object.keys(presets.commissionProfiles)])
  lists.portalCustomerProfiles = unique([...(lists.portalCustomerProfiles ?? []), ...Object.keys(presets.portalProfiles)])
  for (const [name, known] of Object.entries(engineLists)) {
    const unknown = presets.lists[name]?.find((value) => !known.includes(value))
    if (unknown !== undefined) {
      throw new Error(`presets file: ${name} may leave names out but not add any: the engine knows no ${JSON.stringify(unknown)} (it knows ${known.join(', ')})`)
    }
  }
  lists.regulatorProtectedActions = protectedActionsOf(lists)
  lists.unprotectedRegulatorClasses = unprotectedClassesOf(lists, file.lists?.unprotectedRegulatorClasses !== undefined || file.extend?.unprotectedRegulatorClasses !== undefined)
  for (const status of ['Active']) {
    if (!presets.lists.statuses.includes(status)) throw new Error(`presets file: statuses must include "${status}"`)
  }
  // A rate without its percentage would charge no VAT, silently, on everything given it.
  const unpriced = presets.lists.vatRates.filter((rate) => presets.vatRatePercents[rate] === undefined)
  if (unpriced.length) {
    throw new Error(`presets file: vatRates ${unpriced.map((r) => JSON.stringify(r)).join(', ')} ${unpriced.length === 1 ? 'has' : 'have'} no percentage in vatRatePercents`)
  }
  return presets
}

const unique = (xs: readonly string[]) => [...new Set(xs)]

type ProfileEntry = readonly PaymentLinkType[] | { readonly pages?: readonly PortalPage[]; readonly paymentLinks?: readonly PaymentLinkType[] }

/** Both forms of `portalProfiles`: the link types each offers, and the pages of those given as objects. */
function portalProfilesOf(file: Readonly<Record<string, ProfileEntry>> | undefined, base: Presets): Pick<Presets, 'portalProfiles' | 'portalPages'> {
  if (!file) return { portalProfiles: base.portalProfiles, portalPages: base.portalPages }
  const portalProfiles: Record<string, readonly PaymentLinkType[]> = {}
  const pages: Record<string, readonly PortalPage[]> = {}
  for (const [name, entry] of Object.entries(file)) {
    if (Array.isArray(entry)) portalProfiles[name] = entry
    else {
      const object = entry as Exclude<ProfileEntry, readonly PaymentLinkType[]>
      portalProfiles[name] = object.paymentLinks ?? []
      pages[name] = object.pages ?? portalPages
    }
  }
  return { portalProfiles, portalPages: pages }
}

/** The pages a portal profile shows: every page unless its entry lists them. */
export const pagesOf = (presets: Presets, profile: string): readonly PortalPage[] => presets.portalPages[profile] ?? portalPages

