/** A file's work ran past its deadline. */
export class FileTimeoutError extends Error {
  constructor() {
    super('file timed out');
  }
}

/** Loop steps between clock reads: a read costs about as much as a step that visits a node. */
const STEPS_PER_CHECK = 256;

/** The 32-bit microsecond count the binding passes to tree-sitter. */
const MAX_NATIVE_MICROS = 0xffffffff;

/**
 * When a file's work must be done. Tree-sitter checks its own clock (parse and queries get the
 * microseconds left); the JavaScript between and after checks this one, in every loop whose
 * length the file decides, since a nested or damaged file can make any of them quadratic.
 */
export class Deadline {
  private stepsLeft = STEPS_PER_CHECK;

  private constructor(private readonly at: number) {}

  static after(ms: number): Deadline {
    return new Deadline(performance.now() + ms);
  }

  /** Microseconds left, for tree-sitter (which reads 0 as no limit); throws when none are. */
  microsLeft(): number {
    const left = Math.ceil((this.at - performance.now()) * 1000);
    if (left <= 0) throw new FileTimeoutError();
    return Math.min(left, MAX_NATIVE_MICROS);
  }

  /** Throws once the deadline has passed. */
  check(): void {
    if (performance.now() >= this.at) throw new FileTimeoutError();
  }

  /** check(), every STEPS_PER_CHECK calls: for loops whose steps are cheaper than a clock read. */
  step(): void {
    if (--this.stepsLeft > 0) return;
    this.stepsLeft = STEPS_PER_CHECK;
    this.check();
  }
}
