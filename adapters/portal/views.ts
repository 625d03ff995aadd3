import { Eta } from 'eta'
import { compiledTemplates } from './templates/compiled.js'
import { etaConfig, type TemplateName } from './templates/sources.js'

/** A portal page's template name. */
export type View = Exclude<TemplateName, 'layout'>

/**
 * The portal's Eta templates, compiled ahead of time (scripts/portal-templates.ts) and registered
 * by name (`@name`): no template files beside the package's JavaScript, and no code built from
 * strings while serving. Every `<%= %>` is HTML-escaped.
 */
const eta = new Eta(etaConfig)
for (const [name, fn] of Object.entries(compiledTemplates)) eta.loadTemplate(`@${name}`, fn as never)

/** Renders a page of the portal with its layout. */
export function renderView(view: View, data: Record<string, unknown>): string {
  return eta.render(`@${view}`, data)
}
