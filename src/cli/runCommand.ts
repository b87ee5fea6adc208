import { readFlags } from '../options/readFlags.js';
import { COMMANDS, type CommandArgs, type CommandName } from './commandTable.js';

/** Checks a command's arguments and runs it; its module is imported only when it runs. */
export async function runCommand(command: CommandName, parsed: CommandArgs): Promise<number> {
  switch (command) {
    case 'index': {
      const args = readFlags(COMMANDS.index.options, parsed);
      const { runIndexCommand } = await import('./indexCommand.js');
      return runIndexCommand(args);
    }
    case 'tags': {
      const args = readFlags(COMMANDS.tags.options, parsed);
      const { runTagsCommand } = await import('./tagsCommand.js');
      return runTagsCommand(args);
    }
    case 'map': {
      const args = readFlags(COMMANDS.map.options, parsed);
      const { runMapCommand } = await import('./mapCommand.js');
      return runMapCommand(args);
    }
  }
}
