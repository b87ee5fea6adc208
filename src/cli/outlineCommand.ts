import { outline } from '../navigate/outline.js';
import { withRepoView } from '../navigate/repoView.js';
import type { Language } from '../record/languageNames.js';
import { StageTimer } from '../stageTimer.js';
import type { ArgsFor } from './commandTable.js';
import { indexOptionsFrom } from './commonOptions.js';

/** `repomap outline [PATH]`: the outline's text, or the outline as JSON. */
export async function run(args: ArgsFor<'outline'>): Promise<number> {
  const timer = new StageTimer();
  const result = await withRepoView({ ...indexOptionsFrom(args), timer }, (view) => {
    timer.begin('outline');
    return outline(view, {
      path: args.path,
      detail: args.detail,
      format: args.format,
      depth: args.depth,
      // readFlags checked each against the languages.
      languages: args.languages as Language[] | undefined,
      tests: args.tests,
      maxTokens: args.maxTokens,
    });
  });
  timer.end();
  process.stdout.write(args.json ? `${JSON.stringify(result)}\n` : result.text);
  if (args.verbose) {
    const { files, definitions, tokens, budget } = result;
    const shownDefinitions = definitions ? `, ${definitions.shown} of ${definitions.total} definitions` : '';
    const within = budget === null ? '' : `, ${tokens} tokens (budget ${budget})`;
    process.stderr.write(`repomap: outline of ${files.shown} of ${files.total} files${shownDefinitions}${within}\n`);
    process.stderr.write(`repomap: timing: ${timer.report()}\n`);
  }
  return 0;
}
