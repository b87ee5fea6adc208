import type { OptionSpec, OptionTable } from '../options/optionSpec.js';
import { COMMANDS, COMMON_OPTIONS, type CommandName, type CommandRow, type PositionalSpec } from './commandTable.js';

const HELP = { flag: 'help', alias: 'h', kind: 'boolean', describe: 'Print this help' } as const satisfies OptionSpec;
const VERSION = { flag: 'version', alias: 'V', kind: 'boolean', describe: 'Print the version' } as const satisfies OptionSpec;

/** `repomap --help`: the commands. */
export function mainHelp(): string {
  const commands = Object.entries(COMMANDS).map(([name, spec]) => [`repomap ${name} ${usageOf(spec.positionals)}`, spec.describe] as const);
  return [
    'Usage: repomap <command> [arguments] [options]',
    '',
    'Ranked, token-budgeted repository maps for LLM coding agents',
    '',
    'Commands:',
    ...columns(commands),
    '',
    'Options:',
    ...columns([HELP, VERSION].map(optionRow)),
    '',
    "Run 'repomap <command> --help' for a command's options.",
    '',
  ].join('\n');
}

/** `repomap <command> --help`: its options, then those every command takes. */
export function commandHelp(command: CommandName): string {
  const row: CommandRow = COMMANDS[command];
  const options: OptionTable = row.options;
  const notes = row.notes ?? [];
  const ownSpecs = Object.entries(options).filter(([key]) => !Object.hasOwn(COMMON_OPTIONS, key));
  const own = ownSpecs.map(([, spec]) => optionRow(spec));
  // A common flag the command defines its own way (mcp's repeatable --root) is listed once, as its own.
  const redefined = new Set(ownSpecs.map(([, spec]) => spec.flag));
  const common = Object.values(COMMON_OPTIONS)
    .filter((spec) => !redefined.has(spec.flag))
    .map(optionRow);
  const positionals: readonly PositionalSpec[] = COMMANDS[command].positionals;
  const argumentRows = positionals.map((spec) => [wordOf(spec), spec.describe] as const);
  const width = Math.max(...[...argumentRows, ...own, ...common].map(([left]) => left.length));
  return [
    `Usage: repomap ${command} ${usageOf(positionals)}${usageOf(positionals) ? ' ' : ''}[options]`,
    '',
    COMMANDS[command].describe,
    '',
    ...(argumentRows.length > 0 ? ['Arguments:', ...columns(argumentRows, width), ''] : []),
    'Options:',
    ...columns([...own, optionRow(HELP)], width),
    '',
    'Common options:',
    ...columns(common, width),
    '',
    ...(notes.length > 0 ? [...notes, ''] : []),
  ].join('\n');
}

/** `NAME [root]`, `FILE:LINE[:COL]...`: required words bare, optional ones in brackets. */
function usageOf(positionals: readonly PositionalSpec[]): string {
  return positionals.map((spec) => (spec.required ? wordOf(spec) : `[${wordOf(spec)}]`)).join(' ');
}

function wordOf(spec: PositionalSpec): string {
  return `${spec.value ?? spec.name}${spec.variadic ? '...' : ''}`;
}

function optionRow(spec: OptionSpec): readonly [string, string] {
  const flags = `${spec.alias ? `-${spec.alias}, ` : '    '}--${spec.flag}${spec.value ? ` ${spec.value}` : ''}`;
  const notes = [spec.kind === 'strings' ? 'repeatable' : '', spec.default !== undefined && spec.default !== false ? `default ${spec.default}` : ''].filter(
    Boolean,
  );
  return [flags, notes.length > 0 ? `${spec.describe} (${notes.join('; ')})` : spec.describe];
}

function columns(rows: readonly (readonly [string, string])[], width = Math.max(...rows.map(([left]) => left.length))): string[] {
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`);
}
