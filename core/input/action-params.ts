import { BillingError, quoted } from '../errors.js'
import type { ParamsOf } from '../fields/entity.js'
import type { Field } from '../fields/field.js'
import type { FieldValue } from '../fields/item.js'
import { objectBody } from './object-body.js'
import { preview, type InputValidator } from './validate.js'

/**
 * Reads an action body against the action's parameters, described as fields (name, wire type,
 * `required`), in contract 2's order: every missing required parameter first
 * (`missing_parameter`, naming them all), then unknown names and bad values (`invalid_parameter`,
 * naming the parameter). Values are checked by the same schemas as resource fields. A required
 * parameter given as null counts as missing, an optional null as absent (read as null). An
 * absent body counts as `{}`.
 */
export function readParams<const P extends readonly Field[]>(action: string, params: P, input: unknown, validator: InputValidator): ParamsOf<P> {
  const body = input === undefined || input === null ? {} : objectBody(input, 'Send a JSON object of the action parameters, {} when there are none.')
  const given = (name: string) => Object.hasOwn(body, name) && body[name] !== undefined && body[name] !== null

  const missing = params.filter((p) => p.required && !given(p.name)).map((p) => p.name)
  if (missing.length > 0) {
    const list = missing.join(', ')
    throw new BillingError(
      'missing_parameter',
      `Action ${action} needs the parameter${missing.length > 1 ? 's' : ''} ${list}`,
      `Add ${list} to the body of ${action}.`,
    )
  }
  for (const name of Object.keys(body)) {
    if (!params.some((p) => p.name === name)) {
      const takes = params.length ? `${action} takes ${params.map((p) => p.name).join(', ')}` : `${action} takes no parameters`
      throw new BillingError('invalid_parameter', `Action ${action} has no parameter ${quoted(name)}`, `Remove ${quoted(name)}; ${takes}.`)
    }
  }
  const out: Record<string, FieldValue> = {}
  for (const param of params) {
    if (!given(param.name)) {
      out[param.name] = null
      continue
    }
    const value = validator.check(param, body[param.name])
    if (value === undefined) {
      throw new BillingError(
        'invalid_parameter',
        `Invalid value ${preview(body[param.name])} for parameter "${param.name}" of action ${action}`,
        `Give ${param.name} as: ${validator.hintFor(param)}`,
      )
    }
    out[param.name] = value
  }
  // Each value was checked by its parameter's schema, which gives the domain type ParamsOf names.
  return out as ParamsOf<P>
}
