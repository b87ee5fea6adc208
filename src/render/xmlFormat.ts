import { cachedBlock, oneLine } from './formatKit.js';
import type { MapFormat } from './formats.js';

/**
 * The map as XML: `<map>`, then per file in path order `<file path="…" rank="N">` with the
 * shown lines of the text format as escaped text and `</file>`, or `<file path="…" rank="N"/>`
 * for a file listed bare; `</map>`. N is the file's place in the ranking (1 first). Text is
 * escaped, not wrapped in CDATA, so a line holding `]]>` needs nothing special.
 */
export const xmlFormat: MapFormat = {
  render(files, source, options) {
    if (files.length === 0) return [];
    const blocks = ['<map>\n'];
    for (const file of files) {
      blocks.push(
        cachedBlock(options.blockCache, `xml\n${file.rank}\n${file.path}\n${file.lineKey}`, () => {
          const lines = file.lines && source.shownLines(file.path, file.lines, options);
          const open = `<file path="${escapeXml(oneLine(file.path), true)}" rank="${file.rank}"`;
          return lines ? `${open}>\n${escapeXml(lines, false)}</file>\n` : `${open}/>\n`;
        }),
      );
    }
    blocks.push('</map>\n');
    return blocks;
  },
};

const TEXT_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\r': '&#13;' };

/**
 * Text as XML 1.0 holds it: markup characters escaped (quotes too in an attribute), a `\r` kept
 * by a reference, and the characters XML cannot hold at all (other C0 controls) as U+FFFD.
 */
export function escapeXml(text: string, attribute: boolean): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0 cannot hold these, escaped or not.
  const cleaned = text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '\ufffd');
  return cleaned.replace(attribute ? /[&<>"\r]/g : /[&<>\r]/g, (char) => TEXT_ESCAPES[char]!);
}
