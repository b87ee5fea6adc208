const WIDTH = 30;

/** A one-line progress bar on stderr, drawn only when stderr is a terminal (not in CI logs). */
export function progressBar(label: string): { update: (done: number, total: number) => void; clear: () => void } {
  const stream = process.stderr;
  if (!stream.isTTY) return { update: () => {}, clear: () => {} };
  let drawn = false;
  return {
    update(done, total) {
      const filled = total === 0 ? WIDTH : Math.round((done / total) * WIDTH);
      stream.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${done}/${total} files`);
      drawn = true;
    },
    clear() {
      if (drawn) stream.write('\r\x1b[K');
    },
  };
}
