/**
 * The one place code is generated at run time. A few hot paths (an item's wire object and JSON,
 * a row's decoding, a statement's row objects, the ledger's insert rows) are written out per
 * resource as straight-line code, which benches showed to matter (bench/RESULTS.md). Each also
 * has a plain `fallback` computing the same, used where code generation from strings is refused
 * (`node --disallow-code-generation-from-strings`, a content security policy).
 */
export interface GeneratedFunction<F> {
  /** The function's name, in stack traces and profiles: an identifier. */
  readonly name: string
  readonly params: readonly string[]
  readonly body: string
  /** Free variables of `body`, by name. */
  readonly scope?: Readonly<Record<string, unknown>>
  readonly fallback: F
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

/** Whether this process may generate code: learnt from the first refusal. */
let allowed = true

/** Compiles `spec` as a named function with its scope; its fallback where code generation is refused. */
export function generatedFunction<F>(spec: GeneratedFunction<F>): F {
  if (!IDENTIFIER.test(spec.name) || !spec.params.every((p) => IDENTIFIER.test(p))) throw new Error(`generatedFunction: ${spec.name}(${spec.params.join(', ')}) is not a valid signature`)
  if (!allowed) return spec.fallback
  const names = Object.keys(spec.scope ?? {})
  try {
    const make = new Function(...names, `return function ${spec.name}(${spec.params.join(', ')}) {\n${spec.body}\n}`)
    return make(...names.map((n) => spec.scope![n])) as F
  } catch (error) {
    // V8 refuses with an EvalError; anything else is a fault in the generated source.
    if (!(error instanceof EvalError)) throw error
    allowed = false
    return spec.fallback
  }
}

/** Whether generated functions are compiled (false: their fallbacks run). */
export const codeGenerationAllowed = (): boolean => allowed
