import { Validator } from '@seriousme/openapi-schema-validator'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { errorMeanings } from '../../adapters/http/openapi/error-responses.js'
import { toOpenApiPath } from '../../adapters/http/openapi/operations.js'
import { schemaName } from '../../adapters/http/openapi/resource-schemas.js'
import { fullPath } from '../../adapters/http/route.js'
import { mergePresets } from '../../core/presets/presets.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

type Operation = Record<string, any>
const methods = ['get', 'post', 'patch', 'delete', 'put'] as const

function operations(doc: any): { path: string; method: string; op: Operation }[] {
  return Object.entries(doc.paths as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
    methods.filter((m) => item[m]).map((method) => ({ path, method, op: item[method] })),
  )
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness; doc: any }>(`http openapi [${target}]`)
  test.before(async (ctx) => {
    // A presets file's additions must show up in the document's enums.
    ctx.h = await openHarness(target, { presets: mergePresets({ extend: { titles: ['Captain'] } }) })
    ctx.doc = (await ctx.h.request('GET', '/openapi.json', undefined, { key: null })).body
  })
  test.after(async (ctx) => ctx.h.close())

  test('GET /openapi.json is public, JSON, and a valid OpenAPI 3.1 document', async ({ h, doc }) => {
    const r = await h.request('GET', '/openapi.json/', undefined, { key: null })
    assert.is(r.status, 200)
    assert.match(r.headers.get('content-type') ?? '', /^application\/json/)
    assert.ok(r.headers.get('x-request-id'))
    assert.is(doc.openapi, '3.1.0')
    const validator = new Validator()
    const result = await validator.validate(doc)
    assert.ok(result.valid, JSON.stringify(result.errors, null, 2)?.slice(0, 3000))
    assert.is(validator.version, '3.1')
  })

  test('every route of the table is documented with its method, and nothing else is', ({ h, doc }) => {
    const documented = operations(doc).map((o) => `${o.method.toUpperCase()} ${o.path}`)
    const routes = h.platform.routes.map((r) => `${r.method} ${toOpenApiPath(fullPath(r))}`)
    assert.equal([...documented].sort(), [...routes].sort())
    for (const self of ['GET /backend/api/v1/openapi.json', 'GET /backend/api/v1/docs', 'GET /healthz']) {
      assert.ok(documented.includes(self), self)
    }
    const ids = operations(doc).map((o) => o.op.operationId)
    assert.is(new Set(ids).size, ids.length, 'operationIds are unique')
  })

  test('every documented path and method is answered (never 404000 or 405)', async ({ h, doc }) => {
    for (const { path, method } of operations(doc)) {
      const url = path.replace(/\{\w+\}/g, '1')
      const body = method === 'post' || method === 'patch' ? {} : undefined
      const r = await h.request(method.toUpperCase(), url, body)
      assert.is.not(r.status, 405, `${method} ${url}`)
      assert.is.not(r.body?.error_code, 404000, `${method} ${url}`)
    }
  })

  test('security: bearer scheme by default, `security: []` exactly on the public routes', ({ h, doc }) => {
    assert.equal(doc.components.securitySchemes.bearer, { ...doc.components.securitySchemes.bearer, type: 'http', scheme: 'bearer' })
    assert.equal(doc.security, [{ bearer: [] }])
    for (const route of h.platform.routes) {
      const op = doc.paths[toOpenApiPath(fullPath(route))][route.method.toLowerCase()]
      assert.equal(op.security, route.public ? [] : undefined, `${route.method} ${route.path}`)
      // A public route that authenticates otherwise (a provider's signed callback) lists its own 401.
      assert.is(Boolean(op.responses['401']), !route.public || Boolean(route.doc.errors?.includes(401001)), `${route.method} ${route.path}: 401`)
    }
  })

  test('resource schemas come from the catalogue: every non-internal field, wire types, presets', ({ h, doc }) => {
    const schemas = doc.components.schemas
    for (const resource of h.platform.context.resources.values()) {
      const wire = schemas[schemaName(resource)]
      const names = resource.fields.filter((f) => !f.internal).map((f) => f.name)
      assert.equal(Object.keys(wire.properties), names, resource.name)
      assert.equal(wire.required, names, resource.name)
    }
    const customer = schemas.Customer.properties
    // An operator's list is a string with its names as examples (a presets file may add names);
    // a list the engine branches on is closed.
    assert.ok(customer.title.examples.includes('Captain'), 'presets file shows up')
    assert.is(customer.title.enum, undefined)
    assert.equal(customer.title.type, ['string', 'null'])
    assert.equal(schemas.BillingRun.properties.status.enum.slice(0, 2), ['Pending', 'Requested'])
    assert.equal(customer.turnover.type, ['number', 'null'])
    assert.is(customer.turnover.format, 'decimal')
    assert.is(customer.turnover.multipleOf, 0.0001)
    assert.match(customer.turnover.description, /exact decimal/)
    assert.equal(customer.contractStartDate.format, 'date')
    assert.equal(customer.createdStamp.format, 'date-time')
    assert.ok(customer.id.readOnly)
    assert.is(customer.id.type, 'string')
    assert.ok(new RegExp(customer.id.pattern).test('12'))
    assert.equal(customer.customerGroups.type, 'array')
    assert.ok(customer.customerGroups.items.examples.includes('VIP'))
    assert.is(schemas.Number.properties.droppedBy, undefined, 'internal fields are not on the wire')
    assert.ok(schemas.CustomerContact.properties.accountPassword.writeOnly)
    assert.match(schemas.CustomerContactUpdate.properties.accountPassword.description, /null in a request leaves it unchanged/, 'says what the null GET shows does')
    // Create: writable fields plus createOnly (status); update: writable only, all optional.
    assert.ok(schemas.CustomerCreate.properties.status)
    assert.is(schemas.CustomerCreate.properties.id, undefined)
    assert.is(schemas.CustomerUpdate.properties.status, undefined)
    assert.is(schemas.CustomerUpdate.required, undefined)
    assert.equal(schemas.CustomerUpdate.properties.turnover.type, ['number', 'string', 'null'])
  })

  test('operation IDs say what they do; servers names where the API is', ({ doc }) => {
    const id = (path: string, method: string) => doc.paths[`/backend/api/v1${path}`][method].operationId
    assert.is(id('/customers', 'get'), 'listCustomers')
    assert.is(id('/customers', 'post'), 'createCustomer')
    assert.is(id('/customers/{id}', 'get'), 'getCustomer')
    assert.is(id('/customers/{id}', 'patch'), 'updateCustomer')
    assert.is(id('/customers/{id}', 'post'), 'runCustomerAction')
    assert.is(id('/customers/{id}/numbers', 'get'), 'listCustomerNumbers')
    assert.is(id('/customers/{id}/numbers', 'post'), 'createCustomerNumber')
    assert.is(id('/fixedFeeTariffs/{id}/applyIncrease', 'post'), 'applyIncreaseFixedFeeTariff')
    assert.equal(doc.servers, [{ url: '/', description: 'this server' }])
  })

  test('operations: query types, 201 + Location on create, action names and parameters', ({ doc }) => {
    const list = doc.paths['/backend/api/v1/customers'].get
    const param = (name: string) => list.parameters.find((p: any) => p.name === name)
    assert.is(param('limit').schema.type, 'integer')
    assert.is(param('idAfter').schema.type, 'integer')
    assert.is(param('createdSince').schema.format, 'date-time')
    assert.is(param('droppedSince').schema.format, 'date-time')
    assert.ok(param('active').schema.enum.includes('true'))
    assert.is(param('accountNumber').schema.type, 'string')
    assert.ok(param('expandNumbers'))
    const create = doc.paths['/backend/api/v1/customers'].post
    assert.ok(create.responses['201'].headers.Location)
    assert.is(create.requestBody.content['application/json'].schema.$ref, '#/components/schemas/CustomerCreate')
    const action = doc.paths['/backend/api/v1/customers/{id}'].post
    const names = action.parameters.find((p: any) => p.name === 'action')
    assert.ok(names.required)
    assert.ok(['drop', 'reinstate', 'finalBill', 'generatePIN', 'addSharedContact'].every((n) => names.schema.enum.includes(n)))
    const drop = action.requestBody.content['application/json'].schema.anyOf.find((s: any) => s.title === 'drop')
    assert.equal(drop.required, ['status', 'dateDrop'])
    assert.ok(drop.properties.status.examples.includes('Dropped'))
    assert.is(drop.properties.dateDrop.format, 'date')
    assert.ok(action.responses['200'].content['application/json'].schema.anyOf.some((s: any) => s.title === 'generatePIN'))
  })

  test('errors: the {error, error_code, hint} schema, and the codes each route can give', ({ h, doc }) => {
    assert.equal(doc.components.schemas.Error.required, ['error', 'error_code', 'hint'])
    for (const { path, method, op } of operations(doc)) {
      for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
        if (Number(status) < 400) continue
        const codes: number[] = response.content['application/json'].schema.allOf[1].properties.error_code.enum
        for (const code of codes) {
          assert.is(Math.floor(code / 1000), Number(status), `${method} ${path} ${code}`)
          assert.ok(errorMeanings[code], `${code} has a meaning`)
        }
      }
    }
    for (const route of h.platform.routes) {
      const op = doc.paths[toOpenApiPath(fullPath(route))][route.method.toLowerCase()]
      const given = Object.entries(op.responses as Record<string, any>)
        .filter(([s]) => Number(s) >= 400)
        .flatMap(([, r]) => r.content['application/json'].schema.allOf[1].properties.error_code.enum)
      for (const code of route.doc.errors ?? []) assert.ok(given.includes(code), `${route.method} ${route.path}: ${code}`)
    }
    const applyLevel = h.platform.routes.find((r) => r.access === 'expertLevel5')
    if (applyLevel) assert.ok(doc.paths[toOpenApiPath(fullPath(applyLevel))].post.responses['403'])
  })

  test.run()
}
