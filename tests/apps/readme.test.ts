import { execFile } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'

const run = promisify(execFile)
const root = resolve('.')
const scratch = join(root, '.tmp')
const test = suite('apps: the README examples run')

/** The README's code blocks marked `<!-- tested -->`, with the line each starts on. */
function testedBlocks(markdown: string): { lang: 'js' | 'ts'; code: string; line: number }[] {
  const out: { lang: 'js' | 'ts'; code: string; line: number }[] = []
  const re = /<!--\s*tested\s*-->\s*\n```(js|ts)\n([\s\S]*?)\n```/g
  for (let m = re.exec(markdown); m; m = re.exec(markdown)) {
    out.push({ lang: m[1] as 'js' | 'ts', code: m[2], line: markdown.slice(0, m.index).split('\n').length })
  }
  return out
}

/** The example as a file in .tmp/, importing the package from this repository's sources. */
const toRunnable = (code: string): string => code.replace(/from\s+(['"])telco-billing\1/g, "from '../index.ts'")

const blocks = testedBlocks(readFileSync(join(root, 'README.md'), 'utf8'))

test('the README has tested examples of the library and of its HTTP app', () => {
  assert.ok(blocks.some((b) => /createBillingPlatform/.test(b.code) && /\.customers\./.test(b.code)), 'a library example')
  assert.ok(blocks.some((b) => /\.http\b/.test(b.code) && /fetch\(/.test(b.code)), 'an HTTP example')
  assert.ok(testedBlocks('<!-- tested -->\n```js\nx()\n```\n\n```js\nuntested()\n```').length === 1, 'only marked blocks are taken')
})

/** tsc over the README's TypeScript examples, as a user's editor would check them: what it printed, empty when they compile. */
async function typeErrors(ts: { code: string; line: number }[]): Promise<string> {
  const dir = join(scratch, `readme-types-${process.pid}`)
  mkdirSync(dir, { recursive: true })
  // NodeNext resolution: the `.js` name of index.ts, as the compiled package is imported.
  ts.forEach((b, i) => writeFileSync(join(dir, `line-${b.line}-${i}.ts`), b.code.replace(/from\s+(['"])telco-billing\1/g, "from '../../index.js'")))
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: '../../tsconfig.json', compilerOptions: { noEmit: true, incremental: false }, include: ['*.ts'] }))
  try {
    await run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', join(dir, 'tsconfig.json')], { cwd: root, maxBuffer: 1 << 24 })
    return ''
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string }
    return `${e.stdout ?? ''}${e.stderr ?? ''}` || e.message
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

test('the README has a TypeScript example of the library, and it compiles with the typed calls', async () => {
  const ts = blocks.filter((b) => b.lang === 'ts')
  assert.ok(ts.some((b) => /createBillingPlatform/.test(b.code) && /CustomerInput/.test(b.code)), 'a typed library example')
  // One tsc run (it checks the whole package through index.ts): the README's examples, and a misspelt field that must be reported.
  const misspelt = { code: "import type { CustomerInput } from 'telco-billing'\nexport const c: CustomerInput = { lastName: 'x' }", line: 0 }
  const lines = (await typeErrors([...ts, misspelt])).split('\n').filter((l) => /error TS\d+/.test(l))
  assert.equal(lines.filter((l) => !l.includes('line-0-')), [], 'tsc reports nothing in the examples')
  assert.ok(lines.some((l) => l.includes('line-0-') && l.includes('TS2561')), 'and reports the misspelt field')
})

for (const [i, block] of blocks.entries()) {
  test(`README line ${block.line}: the ${block.lang} example runs`, async () => {
    mkdirSync(scratch, { recursive: true })
    const file = join(scratch, `readme-${process.pid}-${i}.${block.lang === 'ts' ? 'ts' : 'mjs'}`)
    writeFileSync(file, toRunnable(block.code))
    try {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', file], { cwd: root, timeout: 60_000 })
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
