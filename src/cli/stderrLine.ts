/** The CLI's one way to say something on stderr: `repomap: ` and one line, whatever a file name in it holds. */
export function writeStderrLine(message: string): void {
  process.stderr.write(`repomap: ${oneLine(message)}\n`);
}

/** Control characters shown as escapes: a newline in a name must not start a line, nor an escape sequence reach the terminal. */
export function oneLine(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is escaped.
  return text.replace(/[\u0000-\u001f\u007f]/g, (char) =>
    char === '\n' ? '\\n' : char === '\t' ? '\\t' : `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}

/** A source line for a terminal: as oneLine, but a tab stays a tab (indentation is no danger). */
export function sourceLine(text: string): string {
  return text.split('\t').map(oneLine).join('\t');
}
