/**
 * The line a csv-parse error is on, as records' lines count them (each LF a line). csv-parse's
 * own count (its errors' `lines`) takes every CR and every LF it meets as a line, but for the CR
 * of a CRLF ending a record: a CRLF inside quotes is two lines to it, and a lone CR one. This
 * follows the text as the parser is given it, and notes where its count runs ahead; once records
 * are taken past such a place, the place is only counted (memory holds the few not yet taken).
 */
export class ParserLines {
  private quoted = false
  /** A CR outside quotes at the end of a piece: a record's end if the next piece starts with LF. */
  private endsInCr = false
  private newlines = 0
  /** For each CR counted too many, in order: the line csv-parse is on just after it. */
  private ahead: number[] = []
  private settled = 0

  /** The text, each piece looked through before the parser has it. */
  async *through(text: AsyncIterable<string>): AsyncGenerator<string> {
    for await (const piece of text) {
      this.look(piece)
      yield piece
    }
  }

  /** Records are taken up to the one that starts on (relative) line `line`: no error is before it. */
  taken(line: number): void {
    let n = 0
    // The CR was on line `ahead[n] - 1 - (its count)`, before `line`, in a record taken.
    while (n < this.ahead.length && this.ahead[n] - (this.settled + n) <= line) n++
    if (n === 0) return
    this.ahead = this.ahead.slice(n)
    this.settled += n
  }

  /** The line csv-parse's `lines` names, as records count them. */
  lineOf(parserLine: number): number {
    let n = 0
    while (n < this.ahead.length && this.ahead[n] <= parserLine) n++
    return parserLine - this.settled - n
  }

  private look(piece: string): void {
    let lf = 0
    // LFs before `at` in the piece, counted as far as a CR counted too many needs them.
    const newlinesBefore = (at: number) => {
      for (let i = piece.indexOf('\n', lf); i >= 0 && i < at; i = piece.indexOf('\n', i + 1)) this.newlines++
      lf = Math.max(lf, at)
    }
    if (this.endsInCr && piece.length > 0) {
      this.endsInCr = false
      if (piece.charCodeAt(0) !== 10) this.aheadByOne()
    }
    let quote = piece.indexOf('"')
    for (let cr = piece.indexOf('\r'); cr >= 0; cr = piece.indexOf('\r', cr + 1)) {
      // Before an error, every quote opens or closes a quoted field, or is half of an escaped one.
      for (; quote >= 0 && quote < cr; quote = piece.indexOf('"', quote + 1)) this.quoted = !this.quoted
      if (!this.quoted && cr + 1 === piece.length) this.endsInCr = true
      else if (this.quoted || piece.charCodeAt(cr + 1) !== 10) {
        newlinesBefore(cr)
        this.aheadByOne()
      }
    }
    for (; quote >= 0; quote = piece.indexOf('"', quote + 1)) this.quoted = !this.quoted
    newlinesBefore(piece.length)
    lf = 0
  }

  /** A CR csv-parse counts as a line: on line 1 + LFs + CRs so counted before it, and on the next after it. */
  private aheadByOne(): void {
    this.ahead.push(2 + this.newlines + this.settled + this.ahead.length)
  }
}
