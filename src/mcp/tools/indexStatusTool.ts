import * as z from 'zod';
import { REFRESH_POLICIES } from '../../serve/refreshPolicies.js';
import { ROOT_INPUT, toolRow } from '../toolKit.js';

const ROOT_STATUS = z.object({
  root: z.string(),
  generation: z.number().int(),
  refreshedAt: z.string().nullable(),
  pendingChanges: z.number().int().nullable(),
  refresh: z.enum(REFRESH_POLICIES),
  files: z.number().int(),
  languages: z.record(z.string(), z.number().int()),
  refreshingSince: z.string().nullable(),
  parsing: z.object({ done: z.number().int(), total: z.number().int() }).nullable(),
  lastFailure: z.string().nullable(),
  watchError: z.string().nullable(),
});

/** `index_status`: what each root's index holds and how fresh it is; answered at once, whatever is running. */
export const indexStatusTool = toolRow({
  title: 'Index status',
  description:
    'For each root served (or the one named): its indexed files and their languages, the store generation answers are read at, when it was last brought up to date, whether a refresh is running and how many changes on disk wait to be indexed. Answered at once, even while indexing.',
  input: { root: ROOT_INPUT },
  output: { roots: z.array(ROOT_STATUS) },
  readOnly: true,
  async run(args, { roots }) {
    const sessions = args.root === undefined ? roots.sessions : [roots.pick(args.root)];
    const statuses = sessions.map((session) => session.status());
    const lines = statuses.map((status) => {
      const languages = Object.entries(status.languages)
        .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
        .map(([language, files]) => `${language} ${files}`)
        .join(', ');
      const pending = status.pendingChanges === null ? `not watched (refresh: ${status.refresh})` : `${status.pendingChanges} changes pending`;
      const parsed = status.parsing ? ` (${status.parsing.done} of ${status.parsing.total} files parsed)` : '';
      const running = status.refreshingSince ? `; refreshing since ${status.refreshingSince}${parsed}` : '';
      const failed = status.lastFailure ? `; last refresh failed: ${status.lastFailure}` : '';
      const watch = status.watchError ? `; not watched: ${status.watchError}` : '';
      return `${status.root}: ${status.files} files (${languages || 'none yet'}); generation ${status.generation}, refreshed ${status.refreshedAt ?? 'never'}; ${pending}${running}${failed}${watch}`;
    });
    return { text: `${lines.join('\n')}\n`, structured: { roots: statuses } };
  },
});
