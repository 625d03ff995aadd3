import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { transform } from 'esbuild'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { testedBlocks } from '../support/readme-examples.js'

const run = promisify(execFile)
const root = resolve('.')
const scratch = join(root, '.tmp')
const test = suite('apps: the README examples run')

const PACKAGE = /from\s+(['"])telco-billing\1/g

/**
 * The example as a file in .tmp/ and node's arguments to run it. It imports the package from the
 * bundle npm test built for child processes (scripts/test-build.mjs; a TypeScript example has its
 * types stripped by the same esbuild), which loads in a sixth of the time tsx takes to compile
 * the sources; without that build, from the sources under tsx.
 */
async function runnable(block: { lang: 'js' | 'ts'; code: string }, i: number): Promise<{ file: string; args: string[] }> {
  const base = join(scratch, `readme-${process.pid}-${i}`)
  const built = process.env.TEST_BUILD_DIR ? join(root, process.env.TEST_BUILD_DIR, 'bundled', 'index.js') : ''
  if (!built || !existsSync(built)) {
    const file = `${base}.${block.lang === 'ts' ? 'ts' : 'mjs'}`
    writeFileSync(file, block.code.replace(PACKAGE, "from '../index.ts'"))
    return { file, args: ['--import', 'tsx', file] }
  }
  const code = block.code.replace(PACKAGE, `from '${pathToFileURL(built).href}'`)
  writeFileSync(`${base}.mjs`, block.lang === 'ts' ? (await transform(code, { loader: 'ts', format: 'esm' })).code : code)
  return { file: `${base}.mjs`, args: ['--enable-source-maps', `${base}.mjs`] }
}

const blocks = testedBlocks(readFileSync(join(root, 'README.md'), 'utf8'))

test('the README has tested examples of the library and of its HTTP app', () => {
  assert.ok(blocks.some((b) => /createBillingPlatform/.test(b.code) && /\.customers\./.test(b.code)), 'a library example')
  assert.ok(blocks.some((b) => /\.http\b/.test(b.code) && /fetch\(/.test(b.code)), 'an HTTP example')
  assert.ok(testedBlocks('<!-- tested -->\n```js\nx()\n```\n\n```js\nuntested()\n```').length === 1, 'only marked blocks are taken')
})

for (const [i, block] of blocks.entries()) {
  test(`README line ${block.line}: the ${block.lang} example runs`, async () => {
    mkdirSync(scratch, { recursive: true })
    const { file, args } = await runnable(block, i)
    try {
      const { stdout } = await run(process.execPath, args, { cwd: root, timeout: 60_000 })
      assert.ok(stdout.trim().length > 0, 'the example prints what it shows')
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string; message: string }
      assert.unreachable(`README line ${block.line} failed: ${e.stderr || e.message}\n${e.stdout ?? ''}`)
    } finally {
      rmSync(file, { force: true })
    }
  })
}

test.run()
