import type { Presets } from '../../../core/presets/presets.js'
import type { ActionDoc, RouteDoc } from '../route.js'
import { fieldSchema, type JsonSchema } from './field-schemas.js'
import type { Parameter } from './query-parameters.js'

/** `?action=<name>`: required, one of the route's action names, each explained. */
export function actionQueryParameter(doc: RouteDoc): Parameter {
  const actions = doc.actions ?? []
  return {
    name: 'action',
    in: 'query',
    required: true,
    description: ['The action to invoke:', ...actions.map((a) => `- \`${a.name}\`: ${a.summary}`)].join('\n'),
    schema: actions.length ? { type: 'string', enum: actions.map((a) => a.name) } : { type: 'string' },
  }
}

/** The body of an action route: the parameter object of each action (one of them is sent). */
export function actionBodySchema(doc: RouteDoc, presets: Presets): JsonSchema {
  const actions = doc.actions ?? []
  if (actions.length === 0) return { type: 'object' }
  if (actions.length === 1) return paramsSchema(actions[0], presets)
  return {
    description: 'The parameters of the action named by `action`; an empty body counts as {}.',
    anyOf: actions.map((a) => paramsSchema(a, presets)),
  }
}

/** The answer of an action route: the updated resource, or an action's own object. */
export function actionResultSchema(doc: RouteDoc, resource: JsonSchema | undefined): JsonSchema {
  const own = (doc.actions ?? []).filter((a) => a.result).map((a) => ({ title: a.name, ...a.result }))
  const base = resource ?? { type: 'object' }
  if (own.length === 0) return base
  return {
    description: `The updated resource; ${own.map((o) => o.title).join(' and ')} answer their own object.`,
    anyOf: [base, ...own],
  }
}

/**
 * The parameters of one action: required ones must be given and not null, optional ones may be
 * null (absent); any other name is refused (400504).
 */
function paramsSchema(action: ActionDoc, presets: Presets): JsonSchema {
  if (!action.params) return { title: action.name, description: action.summary, type: 'object' }
  const required = action.params.filter((p) => p.required).map((p) => p.name)
  return {
    title: action.name,
    description: action.summary,
    type: 'object',
    ...(required.length ? { required } : {}),
    properties: Object.fromEntries(action.params.map((p) => [p.name, fieldSchema(p, presets, 'request')])),
    additionalProperties: false,
  }
}

