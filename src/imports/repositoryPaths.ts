/** Path helpers for relative, `/`-separated repository paths; the root folder is ''. */

export function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

export function baseNameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function childPath(folder: string, name: string): string {
  return folder === '' ? name : `${folder}/${name}`;
}

/** `a/b` → `a/b`, `a`, ''. */
export function* ancestorsOf(folder: string): Generator<string> {
  let at = folder;
  for (;;) {
    yield at;
    if (at === '') return;
    at = folderOf(at);
  }
}
