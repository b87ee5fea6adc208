/** Errors the CLI turns into one line on stderr and an exit code (see cli/cli.ts). */
export class RepomapError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** A root that does not exist or is not a directory. */
export class RootError extends RepomapError {
  constructor(message: string) {
    super(message, 1);
  }
}

/** A flag or argument the CLI cannot use. */
export class UsageError extends RepomapError {
  constructor(message: string) {
    super(message, 1);
  }
}

/**
 * An option given a value it cannot take, named as the caller named it: `maxLineLength` in the
 * library, `--max-line-length` on the command line.
 */
export class OptionError extends UsageError {
  constructor(
    readonly option: string,
    problem: string,
  ) {
    super(`${option} ${problem}`);
  }
}

/** A path the user gave that names no file of the repository (see resolveUserPath). */
export class RepoPathError extends UsageError {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/** Nothing to map: an empty repository, or a budget of zero. */
export class NoMapError extends RepomapError {
  constructor(message: string) {
    super(message, 2);
  }
}

/** A question with no answer: a name no file defines or references (`find`). */
export class NothingFoundError extends RepomapError {
  constructor(message: string) {
    super(message, 2);
  }
}

/** A cache dir repomap must not use: the root, an ancestor of it, a folder holding files repomap did not make, or one whose parent is missing. */
export class CacheDirError extends RepomapError {
  constructor(message: string) {
    super(message, 1);
  }
}

/** An index artifact that cannot be read or written (not one, truncated, corrupt, of another version): the store is left as it was. */
export class ArtifactError extends RepomapError {
  constructor(message: string) {
    super(message, 1);
  }
}

/** A server's call that found its repository still being brought up to date after the wait a call may take (`repomap mcp`): asked again later, it is answered. */
export class IndexBusyError extends RepomapError {
  constructor(message: string) {
    super(message, 2);
  }
}
