import type { ImportingFile, LanguageResolver } from './importGraph.js';
import { baseNameOf } from './repositoryPaths.js';

/**
 * Java: classes are found by each file's declared package and file name (`package a.b;` in
 * `…/C.java` declares `a.b.C`), so no source root needs guessing and a file whose folder does
 * not match its package still counts. `import a.b.C;`, `import a.b.C.Inner;`,
 * `import static a.b.C.m;` → the file of the longest prefix that is a class (C.java);
 * `import a.b.*;` (the name `*`) → every file of package a.b, or, when no file declares that
 * package, the class a.b (`import static a.b.C.*;`). Classes of the importing file's own
 * package need no import and get no entry here.
 */
export const resolveJavaImports: LanguageResolver = (files) => {
  const { classes, packages } = declarationsOf(files);
  const targets = files.map((file) =>
    file.imports.modules.map((module, entry) => {
      const wildcard = file.imports.names[entry]?.includes('*') ?? false;
      return (wildcard ? packages.get(module) : undefined) ?? classFiles(classes, module);
    }),
  );
  return { targets };
};

interface Declarations {
  /** Qualified class name (`a.b.C`) → the files declaring it, in path order. */
  classes: Map<string, string[]>;
  /** Package name → its files, in path order. */
  packages: Map<string, string[]>;
}

function declarationsOf(files: readonly ImportingFile[]): Declarations {
  const classes = new Map<string, string[]>();
  const packages = new Map<string, string[]>();
  const add = (map: Map<string, string[]>, key: string, path: string) => {
    const list = map.get(key);
    if (list) list.push(path);
    else map.set(key, [path]);
  };
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    if (!file.path.endsWith('.java')) continue;
    const className = baseNameOf(file.path).slice(0, -'.java'.length);
    add(classes, file.packageName ? `${file.packageName}.${className}` : className, file.path);
    add(packages, file.packageName, file.path);
  }
  return { classes, packages };
}

/** The files of the longest prefix of `name` that is a class; [] when none is. */
function classFiles(classes: ReadonlyMap<string, string[]>, name: string): readonly string[] {
  for (let end = name.length; end > 0; end = name.lastIndexOf('.', end - 1)) {
    const files = classes.get(name.slice(0, end));
    if (files) return files;
  }
  return [];
}
