/** What the Rust resolver reads of a `Cargo.toml`; paths as written, relative to the manifest's folder. */
export interface CargoManifest {
  /** The library's crate name (`[lib] name`, else `[package] name` with `-` → `_`); '' without `[package]`. */
  libName: string;
  /** `[lib] path`, default `src/lib.rs`. */
  libPath: string;
  /** The `path` of each `[[bin]]`, `[[test]]`, `[[example]]` and `[[bench]]` that gives one. */
  targetPaths: string[];
}

/**
 * The few keys of a manifest the resolver needs: `key = "string"` (or `'string'`) lines under
 * their table headers. A TOML parser would cost a dependency for three keys; multi-line and
 * inline-table forms of these keys are rare enough to go unread.
 */
export function readCargoManifest(text: string): CargoManifest {
  let table = '';
  let packageName = '';
  let libName = '';
  let libPath = '';
  const targetPaths: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const header = /^\[\[?([^\]]*)\]/.exec(line);
    if (header) {
      table = header[1]!.trim();
      continue;
    }
    const pair = /^([\w-]+)\s*=\s*(["'])(.*?)\2/.exec(line);
    if (!pair) continue;
    const key = pair[1]!;
    const value = pair[3]!;
    if (table === 'package' && key === 'name') packageName = value;
    else if (table === 'lib' && key === 'name') libName = value;
    else if (table === 'lib' && key === 'path') libPath = value;
    else if (key === 'path' && (table === 'bin' || table === 'test' || table === 'example' || table === 'bench')) targetPaths.push(value);
  }
  return {
    libName: libName || (packageName ? packageName.replaceAll('-', '_') : ''),
    libPath: libPath || 'src/lib.rs',
    targetPaths,
  };
}
