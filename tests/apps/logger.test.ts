import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { batchedStderr, jsonLogger } from '../../apps/platform/logger.js'

const test = suite('apps logger')

test('each line is one JSON object: time, level, event, then the fields; fields may replace the first three', () => {
  const lines: string[] = []
  const log = jsonLogger((l) => lines.push(l))
  log.info('request', { path: '/x"y', status: 200, nested: { a: [1, null] } })
  log.error('failed')
  log.info('odd', { event: 'renamed', level: 'warn' })
  log.info('empty', {})
  const [a, b, c, d] = lines.map((l) => JSON.parse(l))
  assert.equal(Object.keys(a), ['time', 'level', 'event', 'path', 'status', 'nested'])
  assert.equal({ ...a, time: 0 }, { time: 0, level: 'info', event: 'request', path: '/x"y', status: 200, nested: { a: [1, null] } })
  assert.ok(!Number.isNaN(Date.parse(a.time)))
  assert.equal({ ...b, time: 0 }, { time: 0, level: 'error', event: 'failed' })
  assert.equal({ ...c, time: 0 }, { time: 0, level: 'warn', event: 'renamed' })
  assert.equal({ ...d, time: 0 }, { time: 0, level: 'info', event: 'empty' })
  assert.ok(lines.every((l) => !l.includes('\n')))
})

test('batched lines reach the stream together, in order, once the event loop turns', async () => {
  const writes: string[] = []
  const write = batchedStderr({ write: (t: string) => writes.push(t) })
  write('one')
  write('two')
  assert.equal(writes, [], 'nothing is written synchronously')
  await new Promise((r) => setImmediate(r))
  assert.equal(writes, ['one\ntwo\n'])
  write('x'.repeat(70 * 1024))
  assert.is(writes.length, 2, 'a large batch is written at once')
})

test.run()
