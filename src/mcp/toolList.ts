/** The MCP server's tools by name with a line each: what `repomap mcp --help` lists, read without loading the server. */
export const TOOL_SUMMARIES = {
  repo_map: "The repository's ranked map within a token budget, for a task's text, the files being edited and the names mentioned",
  find_symbol: 'Where a name (or Class.method, pkg.Func) is defined and referenced, best-ranked files first, paged',
  symbol_at: 'The identifier at FILE:LINE[:COL]: its definitions and how each was found, a hover text, its references',
  file_deps: 'The files a file imports (resolved imports), with the lines and the names of each link, paged',
  file_refs: 'The files that import a file, with the lines and the names of each link, paged',
  outline: "A file's or folder's definitions as signatures, methods under their classes, within a token budget",
  index_status: 'Each root: its files and languages, the store generation, the last refresh, the changes pending',
  refresh: 'Bring a root\'s index up to date now (what the policy "manual" waits for)',
} as const;

export type ToolName = keyof typeof TOOL_SUMMARIES;
