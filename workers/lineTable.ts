/**
 * Rows and line texts of a source text by UTF-16 offset, as tree-sitter counts rows (newlines
 * before the offset): cheaper than asking tree-sitter for a point per node.
 */
export class LineTable {
  private readonly newlines: Int32Array;

  constructor(private readonly text: string) {
    let count = 0;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
    this.newlines = new Int32Array(count);
    let n = 0;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.newlines[n++] = i;
  }

  /** Lines as Python's str.splitlines() counts them for ordinary text: no trailing empty line. */
  get lineCount(): number {
    const endsOpen = this.text.length > 0 && !this.text.endsWith('\n');
    return this.newlines.length + (endsOpen ? 1 : 0);
  }

  rowOf(offset: number): number {
    let lo = 0;
    let hi = this.newlines.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.newlines[mid]! < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Offset where a 0-based row starts. */
  lineStart(row: number): number {
    return row === 0 ? 0 : this.newlines[row - 1]! + 1;
  }

  /** Text of a 0-based row without its line break. */
  lineText(row: number): string {
    const start = this.lineStart(row);
    const end = row < this.newlines.length ? this.newlines[row]! : this.text.length;
    const line = this.text.slice(start, end);
    return line.endsWith('\r') ? line.slice(0, -1) : line;
  }
}
