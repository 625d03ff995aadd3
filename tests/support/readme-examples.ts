/** The README's code blocks marked `<!-- tested -->`, with the line each starts on. */
export function testedBlocks(markdown: string): { lang: 'js' | 'ts'; code: string; line: number }[] {
  const out: { lang: 'js' | 'ts'; code: string; line: number }[] = []
  const re = /<!--\s*tested\s*-->\s*\n```(js|ts)\n([\s\S]*?)\n```/g
  for (let m = re.exec(markdown); m; m = re.exec(markdown)) {
    out.push({ lang: m[1] as 'js' | 'ts', code: m[2], line: markdown.slice(0, m.index).split('\n').length })
  }
  return out
}
