import { cachedBlock, oneLine } from './formatKit.js';
import type { MapFormat } from './formats.js';

/**
 * The map as Markdown: per file in path order a `## path` heading and a fenced block of the
 * text format's shown lines, or a `- path` bullet for a file listed bare; paths as code spans,
 * so `_` or `*` in a name formats nothing. Every shown line starts with `│` or `⋮`, so none
 * can close the fence, whatever backticks the source holds.
 */
export const markdownFormat: MapFormat = {
  render(files, source, options) {
    return files.map((file) =>
      cachedBlock(options.blockCache, `markdown\n${file.path}\n${file.lineKey}`, () => {
        const lines = file.lines && source.shownLines(file.path, file.lines, options);
        const path = codeSpan(oneLine(file.path));
        return lines ? `## ${path}\n\`\`\`\n${lines}\`\`\`\n` : `- ${path}\n`;
      }),
    );
  },
};

/** CommonMark's code span: a backtick run longer than any inside, padded where the text starts or ends with a backtick. */
function codeSpan(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}
