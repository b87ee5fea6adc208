import type { Definition } from '../record/fileRecord.js';
import type { HubRules, ImportingFile } from './importGraph.js';

/** How many files a name is followed through past the hub: package hubs chain two or three deep. */
const MAX_HOPS = 4;

/**
 * The names a module gives its importers: its definitions outside any other (a method is no
 * module's name). Definitions come in order of their name's line.
 */
export function moduleNamesOf(definitions: readonly Definition[]): string[] {
  const names: string[] = [];
  let outer: Definition | undefined;
  for (const definition of definitions) {
    if (outer && definition.line > outer.line && definition.line <= outer.endLine) continue;
    names.push(definition.name);
    outer = definition;
  }
  return names;
}

/**
 * The targets of one language family's entries with each re-export hub seen through: an entry
 * taking names from a hub that does not define them names instead the files that do, found
 * along the hub's own entries taking the name (or `*`), file by file, at most MAX_HOPS deep.
 * A name the hub defines, or that no file on the way defines, stays on the hub; so does an
 * entry taking the module itself or all of it.
 */
export function followReExports(files: readonly ImportingFile[], targets: readonly (readonly string[])[][], hubs: HubRules): (readonly string[])[][] {
  const search = new DefinerSearch(files, targets, hubs);
  // Many files take the same names from one hub.
  const answers = new Map<string, readonly string[]>();
  const definersFromHub = (hub: string, name: string): readonly string[] => {
    const key = `${hub}\0${name}`;
    let definers = answers.get(key);
    if (!definers) {
      definers = search.definersOf(hub, name) ?? [hub];
      answers.set(key, definers);
    }
    return definers;
  };
  return targets.map((entries, file) =>
    entries.map((entryTargets, entry) => {
      if (!entryTargets.some((target) => hubs.isHub(target))) return entryTargets;
      const followed = new Set<string>();
      for (const target of entryTargets) {
        const names = hubs.isHub(target) ? hubs.takenNames(file, entry, target) : [];
        if (names.length === 0 || names.includes('*')) followed.add(target);
        else for (const name of names) for (const definer of definersFromHub(target, name)) followed.add(definer);
      }
      return [...followed];
    }),
  );
}

/** What a file's entries take: each name from the files it is taken from, every name from `*`'s files. */
interface TakenNames {
  named: Map<string, string[]>;
  everything: string[];
}

class DefinerSearch {
  private readonly idOf: Map<string, number>;
  /** Each file's module names and what its entries take, made when a search first reaches it. */
  private readonly defined = new Map<number, ReadonlySet<string>>();
  private readonly taken = new Map<number, TakenNames>();
  /** The files on the current path: a cycle of hubs ends where it closes. */
  private readonly visiting = new Set<number>();

  constructor(
    private readonly files: readonly ImportingFile[],
    private readonly targets: readonly (readonly string[])[][],
    private readonly hubs: HubRules,
  ) {
    this.idOf = new Map(files.map((file, id) => [file.path, id]));
  }

  /** The files defining `name` that `path` passes on, itself when it defines it; null for none. */
  definersOf(path: string, name: string, hops = 0): string[] | null {
    const id = this.idOf.get(path);
    if (id === undefined) return null;
    if (this.definesName(id, name)) return [path];
    if (hops === MAX_HOPS || this.visiting.has(id)) return null;
    this.visiting.add(id);
    const found: string[] = [];
    const { named, everything } = this.takenBy(id);
    for (const target of [...(named.get(name) ?? []), ...everything]) {
      for (const definer of this.definersOf(target, name, hops + 1) ?? []) if (!found.includes(definer)) found.push(definer);
    }
    this.visiting.delete(id);
    return found.length > 0 ? found : null;
  }

  private takenBy(id: number): TakenNames {
    let taken = this.taken.get(id);
    if (taken) return taken;
    taken = { named: new Map(), everything: [] };
    this.taken.set(id, taken);
    const { named, everything } = taken;
    this.targets[id]!.forEach((entryTargets, entry) => {
      for (const target of entryTargets) {
        for (const name of this.hubs.takenNames(id, entry, target)) {
          if (name === '*') everything.push(target);
          else {
            const from = named.get(name);
            if (from) from.push(target);
            else named.set(name, [target]);
          }
        }
      }
    });
    return taken;
  }

  private definesName(id: number, name: string): boolean {
    let names = this.defined.get(id);
    if (!names) {
      names = new Set(this.files[id]!.definedNames);
      this.defined.set(id, names);
    }
    return names.has(name);
  }
}
