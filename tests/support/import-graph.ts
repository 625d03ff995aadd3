import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import ts from 'typescript'

/** One import between two modules of a tree: from and to (modules), whether only types cross it, and the files. */
export interface ModuleImport {
  readonly from: string
  readonly to: string
  readonly typeOnly: boolean
  readonly file: string
  readonly target: string
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : []
  })
}

/** The module a file belongs to: its top folder under `root`, or the file's own name for a file at the top. */
const moduleOf = (root: string, file: string): string => {
  const [first, ...rest] = relative(root, file).split(sep)
  return rest.length ? first : first.replace(/\.ts$/, '')
}

/** Whether an import or export statement carries only types (`import type`, or every name marked `type`). */
function isTypeOnly(statement: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(statement)) return statement.isTypeOnly
  const clause = statement.importClause
  if (!clause) return false // a bare import runs the module
  if (clause.isTypeOnly) return true
  const named = clause.namedBindings
  return !clause.name && !!named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly)
}

/** Every relative import between different modules of the tree under `root`, read with TypeScript's parser. */
export function moduleImports(root: string): ModuleImport[] {
  const out: ModuleImport[] = []
  for (const file of files(root)) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest)
    for (const statement of source.statements) {
      if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement))) continue
      const specifier = statement.moduleSpecifier
      if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue
      const target = resolve(dirname(file), specifier.text).replace(/\.js$/, '.ts')
      const from = moduleOf(root, file)
      const to = moduleOf(root, target)
      if (from !== to) out.push({ from, to, typeOnly: isTypeOnly(statement), file: relative(root, file), target: relative(root, target) })
    }
  }
  return out
}

/** The cycles of a directed graph: its strongly connected components of more than one node, each sorted. */
export function cyclesOf(edges: readonly { readonly from: string; readonly to: string }[]): string[][] {
  const next = new Map<string, Set<string>>()
  for (const { from, to } of edges) {
    if (!next.has(from)) next.set(from, new Set())
    if (!next.has(to)) next.set(to, new Set())
    next.get(from)!.add(to)
  }
  // Tarjan's algorithm.
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const cycles: string[][] = []
  const visit = (node: string) => {
    index.set(node, index.size)
    low.set(node, index.get(node)!)
    stack.push(node)
    for (const to of next.get(node)!) {
      if (!index.has(to)) {
        visit(to)
        low.set(node, Math.min(low.get(node)!, low.get(to)!))
      } else if (stack.includes(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!))
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = []
      for (let member = stack.pop()!; ; member = stack.pop()!) {
        component.push(member)
        if (member === node) break
      }
      if (component.length > 1) cycles.push(component.sort())
    }
  }
  for (const node of next.keys()) if (!index.has(node)) visit(node)
  return cycles
}
