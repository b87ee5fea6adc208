import type * as z from 'zod';
import type { ToolRow } from './toolKit.js';
import type { ToolName } from './toolList.js';
import { fileDepsTool, fileRefsTool } from './tools/fileLinksTool.js';
import { findSymbolTool } from './tools/findSymbolTool.js';
import { indexStatusTool } from './tools/indexStatusTool.js';
import { outlineTool } from './tools/outlineTool.js';
import { refreshTool } from './tools/refreshTool.js';
import { repoMapTool } from './tools/repoMapTool.js';
import { symbolAtTool } from './tools/symbolAtTool.js';

/** The tool registry: a tool is one row here and one module under tools/. */
export const TOOLS: Record<ToolName, ToolRow<z.ZodRawShape, z.ZodRawShape>> = {
  repo_map: repoMapTool as never,
  find_symbol: findSymbolTool as never,
  symbol_at: symbolAtTool as never,
  file_deps: fileDepsTool as never,
  file_refs: fileRefsTool as never,
  outline: outlineTool as never,
  index_status: indexStatusTool as never,
  refresh: refreshTool as never,
};
