/**
 * Wall time per pipeline stage, reported by `--verbose`: a stage ends when the next begins.
 * Costs two clock reads per stage when nobody asks for the report.
 */
export class StageTimer {
  private readonly stages: { name: string; ms: number }[] = [];
  private current: string | null = null;
  private started = performance.now();

  /** Ends the running stage, if any, and starts `name`. */
  begin(name: string): void {
    this.end();
    this.current = name;
    this.started = performance.now();
  }

  end(): void {
    if (this.current !== null) this.stages.push({ name: this.current, ms: performance.now() - this.started });
    this.current = null;
  }

  /** `discover 3.1 ms, store 12.0 ms, …` */
  report(): string {
    this.end();
    return this.stages.map((stage) => `${stage.name} ${stage.ms.toFixed(1)} ms`).join(', ');
  }
}
