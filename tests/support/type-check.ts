import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** A file for the shared tsc run: one on disk, or `text` written for the run and removed after it. */
export interface Source {
  readonly path: string
  readonly text?: string
}

export interface TypeCheck {
  /** tsc's exit code and everything it printed. */
  readonly code: number
  readonly out: string
  /** Each error tsc reported: its file (absolute), line (1-based) and TSnnnn code. */
  readonly errors: readonly { file: string; line: number; code: string }[]
  /** Errors outside the sources: in the package they import (index.ts and what it imports). */
  readonly elsewhere: readonly string[]
  /** Lines tsc printed that are neither an error nor an error's indented continuation. */
  readonly unplaced: readonly string[]
}

/**
 * One tsc program over `sources` with the settings of the project at `root` (its tsconfig.json,
 * nothing emitted). Sources that import a package's sources make tsc type-check all of it (20-60
 * s of CPU); tests/apps/package.test.ts puts them in its build's `dist`, where they import its
 * declarations, as a user's code does, and tsc checks only them.
 */
export async function typeCheck(sources: readonly Source[], root = resolve('.')): Promise<TypeCheck> {
  mkdirSync(join(root, '.tmp'), { recursive: true })
  const dir = mkdtempSync(join(root, '.tmp', 'type-check-'))
  const written = sources.filter((s) => s.text !== undefined)
  try {
    for (const s of written) {
      mkdirSync(dirname(s.path), { recursive: true })
      writeFileSync(s.path, s.text!)
    }
    const files = sources.map((s) => resolve(s.path))
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: '../../tsconfig.json', compilerOptions: { noEmit: true, incremental: false }, include: [], files }))
    const { code, out } = await run(process.execPath, [resolve('node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], { cwd: root, maxBuffer: 1 << 24 }).then(
      () => ({ code: 0, out: '' }),
      (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code ?? 1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` }),
    )
    const lines = out.split('\n')
    const error = /^(.+?)\((\d+),\d+\): error (TS\d+)/
    const errors = lines.flatMap((l) => {
      const m = error.exec(l)
      return m ? [{ file: resolve(root, m[1]), line: Number(m[2]), code: m[3] }] : []
    })
    return {
      code,
      out,
      errors,
      elsewhere: lines.filter((l) => error.test(l) && !files.includes(resolve(root, error.exec(l)![1]))),
      unplaced: lines.filter((l) => l.trim() && !/^\s/.test(l) && !error.test(l)),
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
    for (const s of written) rmSync(s.path, { force: true })
  }
}
