import * as z from 'zod';
import { INDEX_STATE, ROOT_INPUT, stateLine, toolRow } from '../toolKit.js';

/** `refresh`: the index brought up to date now. */
export const refreshTool = toolRow({
  title: 'Refresh the index',
  description:
    'Brings a root\'s index up to date with the files on disk now. Needed only when the server runs with refresh "manual", or after changes its watcher cannot see; other answers say when changes are pending.',
  input: { root: ROOT_INPUT },
  output: { index: INDEX_STATE, changed: z.boolean().describe('Whether the refresh changed the index') },
  readOnly: false,
  async run(args, { roots }) {
    const { value, state } = await roots.pick(args.root).refresh();
    return {
      text: `${stateLine(state)}\n${value.changed ? 'the index changed' : 'the index was already up to date'}\n`,
      structured: { index: state, changed: value.changed },
    };
  },
});
