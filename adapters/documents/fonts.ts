import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The embedded fonts (DejaVu Sans, shipped in `assets/fonts` with its licence): every glyph a bill prints, £ and € among them. */
export interface DocumentFonts {
  readonly regular: Buffer
  readonly bold: Buffer
}

let loaded: DocumentFonts | undefined

/**
 * The package's fonts, read once. This module runs from `adapters/documents` (sources) or
 * `dist/adapters/documents` (built), so the package root is two or three folders up.
 */
export function documentFonts(): DocumentFonts {
  if (loaded) return loaded
  let dir = dirname(fileURLToPath(import.meta.url))
  for (let i = 0; i < 5; i++) {
    const fonts = join(dir, 'assets', 'fonts')
    if (existsSync(join(fonts, 'DejaVuSans.ttf'))) {
      loaded = { regular: readFileSync(join(fonts, 'DejaVuSans.ttf')), bold: readFileSync(join(fonts, 'DejaVuSans-Bold.ttf')) }
      return loaded
    }
    dir = dirname(dir)
  }
  throw new Error('assets/fonts/DejaVuSans.ttf is missing from the package: invoice PDFs need it')
}
