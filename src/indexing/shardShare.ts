import type { DiscoveredFile } from '../discover/discoverFiles.js';
import type { IndexShard } from '../options/libraryOptions.js';

/**
 * The files of part `part` of `of` of an index split over machines (`index --shard K/N`): the
 * files in path order cut into `of` runs of about equal parse bytes, each within one file's size
 * of an even share. A file no worker reads (no grammar, too large) weighs nothing and goes with
 * the file after it. Every machine that lists the same files makes the same cut, and each file
 * falls in exactly one part; a run of paths keeps a folder's files together.
 */
export function shardShare(files: readonly DiscoveredFile[], { part, of }: IndexShard, maxFileBytes: number): DiscoveredFile[] {
  const weight = (file: DiscoveredFile) => (file.language !== null && file.size <= maxFileBytes ? file.size : 0);
  const total = files.reduce((sum, file) => sum + weight(file), 0);
  const share: DiscoveredFile[] = [];
  let before = 0;
  files.forEach((file, index) => {
    // The part whose span holds the file's first byte; with no bytes to share, files are shared by count.
    const at = total === 0 ? Math.floor((index * of) / files.length) : Math.min(of - 1, Math.floor((before * of) / total));
    if (at === part - 1) share.push(file);
    before += weight(file);
  });
  return share;
}
