import { createHash } from 'node:crypto'
import { Eta } from 'eta'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { compiledFrom, compiledTemplates } from '../../adapters/portal/templates/compiled.js'
import { etaConfig, templateSources } from '../../adapters/portal/templates/sources.js'
import { renderView } from '../../adapters/portal/views.js'

test('the compiled portal templates are the templates as they are now (node --import tsx scripts/portal-templates.ts)', () => {
  assert.equal(Object.keys(compiledTemplates), Object.keys(templateSources))
  for (const [name, source] of Object.entries(templateSources)) {
    assert.is(compiledFrom[name as keyof typeof templateSources], createHash('sha256').update(source).digest('hex'), `${name} is stale: run scripts/portal-templates.ts`)
  }
  // And they render what Eta compiling the sources now renders.
  const fresh = new Eta(etaConfig)
  for (const [name, source] of Object.entries(templateSources)) fresh.loadTemplate(`@${name}`, source)
  const data = { title: 'T', seller: 'S', base: '/portal', csrf: 'c', error: 'e', email: 'a@b', accountNumber: 'N', message: 'm', linkPath: 'p', linkLabel: 'l' }
  assert.is(renderView('signIn', data), fresh.render('@signIn', data))
})

test('what a customer typed is escaped, never markup', () => {
  const html = renderView('signIn', { title: 'Sign in', seller: '<b>S</b>', base: '/portal', csrf: 'x', error: null, email: '"><script>alert(1)</script>', accountNumber: '' })
  assert.not.match(html, /<script>/)
  assert.match(html, /&quot;&gt;&lt;script&gt;/)
  assert.match(html, /&lt;b&gt;S&lt;\/b&gt;/)
})

test.run()
