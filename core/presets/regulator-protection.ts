/**
 * Regulator protection (billing-api.md, customers' `regulatorProtectionClass`): the platform does
 * not cut off on its own a customer that requires protection; the actions the presets list
 * `regulatorProtectedActions` names (of dunning's and a credit limit's `suspend` and `bar`,
 * contract 15.2) are left to a person. The list ships empty: 15.2 suspends and bars whoever a
 * profile says, class or none, and a platform chooses protection as it chooses suspension. The
 * list `unprotectedRegulatorClasses` names the classes that do not require it; every other class
 * does, and so does a blank one (unknown or unreviewed).
 */

/** Why an action was withheld, as a withheld dunning step and the withholding events name it. */
export const REGULATOR_PROTECTION = 'regulatorProtection'

/** The shipped classes without protection: only the one that says so. */
export const defaultUnprotectedRegulatorClasses: readonly string[] = ['Not Protected']

/** The actions protection can withhold. */
export const protectableActions = ['suspend', 'bar'] as const
export type ProtectableAction = (typeof protectableActions)[number]

type ProtectionPresets = { readonly lists: Readonly<Record<string, readonly string[]>> }

/** Whether the platform must leave `action` on this customer to a person. */
export function withholds(presets: ProtectionPresets, customer: { readonly regulatorProtectionClass: string | null }, action: string): boolean {
  return (presets.lists.regulatorProtectedActions ?? []).includes(action) && requiresProtection(presets, customer)
}

/** Whether the customer requires protection: its class is blank or not one the presets leave unprotected. */
export function requiresProtection(presets: { readonly lists: Readonly<Record<string, readonly string[]>> }, customer: { readonly regulatorProtectionClass: string | null }): boolean {
  const cls = customer.regulatorProtectionClass
  return !cls || !(presets.lists.unprotectedRegulatorClasses ?? []).includes(cls)
}

/**
 * The merged `unprotectedRegulatorClasses`. Names a presets file gives must each be a
 * `regulatorProtectionClasses` name (a misspelt one would leave a class protected unnoticed):
 * else it throws naming it. Inherited names the file's classes no longer hold are dropped, which
 * protects more customers, never fewer.
 */
export function unprotectedClassesOf(lists: Readonly<Record<string, readonly string[]>>, given: boolean): string[] {
  const classes = lists.regulatorProtectionClasses ?? []
  const names = lists.unprotectedRegulatorClasses ?? []
  if (!given) return names.filter((n) => classes.includes(n))
  const unknown = names.find((n) => !classes.includes(n))
  if (unknown !== undefined) {
    throw new Error(`presets file: unprotectedRegulatorClasses names ${JSON.stringify(unknown)}, which is not one of regulatorProtectionClasses (${classes.join(', ')})`)
  }
  return [...names]
}

/** The merged `regulatorProtectedActions`: each must be an action protection can withhold, else it throws naming it. */
export function protectedActionsOf(lists: Readonly<Record<string, readonly string[]>>): string[] {
  const names = lists.regulatorProtectedActions ?? []
  const unknown = names.find((n) => !(protectableActions as readonly string[]).includes(n))
  if (unknown !== undefined) throw new Error(`presets file: regulatorProtectedActions names ${JSON.stringify(unknown)}; it may name ${protectableActions.join(', ')}`)
  return [...names]
}
