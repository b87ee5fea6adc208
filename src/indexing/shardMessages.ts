import type { Language } from '../record/fileRecord.js';

/** The messages between the coordinator and the parse workers (workers/parseShard.ts). */

export interface ShardFile {
  path: string;
  language: Language;
  mtimeMs: number;
  size: number;
}

export interface ParseShardRequest {
  kind: 'parse-shard';
  root: string;
  files: ShardFile[];
  maxFileBytes: number;
  fileTimeoutMs: number;
  /** Where each worker notes the file it is parsing, so a crash can be pinned on it; null: none. */
  journalDir: string | null;
}

export interface ShardResult {
  kind: 'shard-result';
  /** The stored values (see record/recordCodec.ts) of the shard's files, back to back, in order. */
  values: Uint8Array;
  lengths: number[];
  /** Files whose tags were extracted. */
  parsed: number;
}
