import { execFileSync, spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { installOffline, npm, provideSqliteAddon } from '../support/npm-install.js'

/**
 * Contract 13: on a clone, `npm ci --omit=dev`, then `npm start`, `npm run worker`,
 * `npm run apikey` and `npm run restore` work with no dev dependency installed. The clone is
 * this checkout's files (tracked and new, as git lists them) in a temporary directory.
 */
const root = resolve('.')
const test = suite('apps: a production install (npm ci --omit=dev) runs the server, the worker and both CLIs')

/** `npm run <script>` in its own process group, so that the signal reaches npm's child too. */
function npmRun(cwd: string, script: string, env: Record<string, string>) {
  const child = spawn('npm', ['run', '--silent', script], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  let out = ''
  let err = ''
  child.stdout.on('data', (c) => (out += c))
  child.stderr.on('data', (c) => (err += c))
  // 'close', not 'exit': npm may end before the program it ran has written its last line to the shared pipe.
  const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)))
  const waitFor = (pattern: RegExp, where: () => string) =>
    new Promise<RegExpExecArray>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`${script}: no ${pattern} in 30 s:\n${out}\n${err}`)), 30_000)
      const check = () => {
        const m = pattern.exec(where())
        if (m) {
          clearTimeout(timer)
          done(m)
        }
      }
      child.stdout.on('data', check)
      child.stderr.on('data', check)
      void exited.then(() => {
        check()
        fail(new Error(`${script} exited:\n${out}\n${err}`))
      })
    })
  // The group gets the signal (npm and the server alike): the server's own "stopped" line, not
  // npm's exit code, says that it shut down cleanly.
  return { child, exited, out: () => out, err: () => err, waitFor, stop: () => process.kill(-child.pid!, 'SIGTERM') }
}

if (process.env.SKIP_PACK_TEST === '1') {
  console.log('\n[production-install] SKIPPED: SKIP_PACK_TEST=1; the --omit=dev install did not run.\n')
  test.skip('npm ci --omit=dev; npm start, npm run worker, npm run apikey, npm run restore', () => {})
} else {
  test('npm ci --omit=dev; npm start, npm run worker, npm run apikey, npm run restore', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'billing-prod-'))
    try {
      const app = join(dir, 'app')
      const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean)
      for (const file of files) {
        if (!existsSync(join(root, file))) continue // deleted in the work tree
        // A worktree's node_modules may be an untracked symlink to another checkout's: copied,
        // `npm ci` below emptied that checkout's node_modules through it (it did, 2026-11-28).
        if (file === 'node_modules' || file.startsWith('node_modules/')) continue
        mkdirSync(dirname(join(app, file)), { recursive: true })
        cpSync(join(root, file), join(app, file))
      }
      // npm ci runs `prepare` (the build) after installing; scripts are skipped here only so that
      // the SQLite addon is copied rather than compiled, so the build is run as npm would run it.
      const how = await installOffline(['ci', '--omit=dev'], app)
      await provideSqliteAddon(root, app)
      for (const dev of ['tsx', 'uvu', 'fast-check', 'playwright-core', 'pdfjs-dist', 'pngjs']) assert.not.ok(existsSync(join(app, 'node_modules', dev)), `${dev} is not installed`)
      await npm(['run', 'prepare'], app).catch((e) => assert.unreachable(`the build: ${e.stdout}\n${e.stderr}`))

      // Invoice PDFs (contract 10.5) need pdfkit and the fonts the clone ships, no dev tool.
      const fonts = execFileSync(process.execPath, ['--input-type=module', '-e', "const m = await import('./dist/adapters/documents/fonts.js'); const f = m.documentFonts(); console.log(f.regular.postscriptName, f.bold.postscriptName)"], { cwd: app, encoding: 'utf8' })
      assert.is(fonts.trim(), 'DejaVuSans DejaVuSans-Bold')

      const env = { DATABASE_URL: `sqlite:${join(dir, 'prod.sqlite')}`, HOST: '127.0.0.1', PORT: '0', BILLING_SCHEDULER: 'off' }
      const server = npmRun(app, 'start', env)
      const [, base] = await server.waitFor(/Serving (http:\/\/\S+)/, server.out)
      const key = /shown only once:\n(\S+)/.exec(server.out())?.[1]
      assert.ok(key, server.out())
      assert.is((await fetch(`${base}/customers`, { headers: { authorization: `Bearer ${key}` } })).status, 200)
      server.stop()
      await server.waitFor(/"msg":"stopped"/, server.err)

      const worker = npmRun(app, 'worker', env)
      await worker.waitFor(/worker-started/, worker.err)
      worker.stop()
      await worker.waitFor(/"msg":"worker-stopped"/, worker.err)

      const apikey = await npm(['run', '--silent', 'apikey', '--', 'create', '--name', 'ops'], app, env)
      assert.match(apikey.stdout, /^tbk_[\w-]{32}\n$/)
      assert.match((await npm(['run', '--silent', 'apikey', '--', 'list'], app, env)).stdout, /^admin\t.*\nops\t/m)

      const missing = await npm(['run', '--silent', 'restore', '--', '--archive', join(dir, 'none.7z'), '--password-env', 'NO_SUCH_VAR'], app, env).then(
        () => ({ code: 0, stderr: 'a missing archive was accepted' }),
        (e: { code: number; stderr: string }) => e,
      )
      assert.ok(missing.code !== 0)
      assert.not.match(missing.stderr, /Cannot find (package|module)|ERR_MODULE_NOT_FOUND/)
      const usage = await npm(['run', '--silent', 'restore', '--', '--help'], app, env)
      assert.match(usage.stderr, /usage:/)
      console.log(`[production-install] ${files.length} files, installed ${how}`)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
}

test.run()
