import { BillingError } from '../errors.js'
import { features } from '../fields/features.js'
import { validatorFor } from '../input/validate.js'
import type { FeatureTemplate } from '../presets/product-maps.js'
import type { Presets } from '../presets/presets.js'

/**
 * A feature create body with its `standardFeature` template under it (contract 11): every
 * template field the request does not give (an explicit null is given). The template is copied at
 * create, so later template changes leave existing features as they are. Values stay wire values:
 * the body is then validated as a whole, template and all.
 */
export function withStandardFeature(body: unknown, templates: Readonly<Record<string, FeatureTemplate>>): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body
  const name = (body as Record<string, unknown>).standardFeature
  if (typeof name !== 'string') return body
  const template = Object.hasOwn(templates, name) ? templates[name] : undefined
  // An unknown name is left for validation to refuse with the list of names.
  // A field given as undefined is absent (validateInput): the template's value stays.
  return template ? { ...template, ...Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) } : body
}

/**
 * Checks that every template is a feature create body the platform would accept: thrown at
 * start, naming the template, before anything is written.
 */
export function checkTemplates(templates: Readonly<Record<string, FeatureTemplate>>, validate: (body: unknown) => void): void {
  for (const [name, template] of Object.entries(templates)) {
    if ('standardFeature' in template) throw new Error(`presets file: standardFeatures.${name} may not set standardFeature`)
    try {
      validate(template)
    } catch (error) {
      const message = error instanceof BillingError ? `${error.message} (${error.hint})` : (error as Error).message
      throw new Error(`presets file: standardFeatures.${name} is not a valid feature: ${message}`)
    }
  }
}

/** `checkTemplates` of a presets configuration, against the features resource as the API validates it. */
export function checkStandardFeatures(presets: Presets): Presets {
  const validator = validatorFor(presets)
  checkTemplates(presets.standardFeatures, (body) => validator.validateInput(features, body))
  return presets
}
