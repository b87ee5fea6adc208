import { cachedBlock, codeSpan, oneLine } from './formatKit.js';
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
