import { oneLine } from '../render/navigationText.js';

/** The CLI's one way to say something on stderr: `repomap: ` and one line, whatever a file name in it holds. */
export function writeStderrLine(message: string): void {
  process.stderr.write(`repomap: ${oneLine(message)}\n`);
}
