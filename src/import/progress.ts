/**
 * A one-line progress bar on stderr when it is a terminal (architecture.md, "Contracts"); silent
 * otherwise, where JSON logs tell a job's story. Redrawn at most every 100 ms.
 */
export class Progress {
  private lastDrawMs = 0;
  private drawn = false;

  constructor(
    private readonly stream: { write(text: string): unknown; isTTY?: boolean; columns?: number },
    private readonly now: () => number = Date.now,
  ) {}

  get enabled(): boolean {
    return this.stream.isTTY === true;
  }

  /** `what` names the things read: the import stages rows, migrate-v1 v1 cases. */
  staged(count: number, what = 'rows'): void {
    this.draw(`staging: ${count.toLocaleString('en-US')} ${what} read`);
  }

  claims(done: number, total: number): void {
    const width = 24;
    const filled = total === 0 ? width : Math.round((done / total) * width);
    const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
    // The last state is always drawn, so the bar never stops short of 100%.
    this.draw(`claims [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${percent}%`, done === total);
  }

  /** Clears the line, so the summary starts on a clean one. */
  done(): void {
    if (this.enabled && this.drawn) this.stream.write('\r\u001b[2K');
    this.drawn = false;
  }

  private draw(text: string, force = false): void {
    if (!this.enabled) return;
    const nowMs = this.now();
    if (!force && nowMs - this.lastDrawMs < 100) return;
    this.lastDrawMs = nowMs;
    this.drawn = true;
    this.stream.write(`\r\u001b[2K${text.slice(0, Math.max(this.stream.columns || 80, 20) - 1)}`);
  }
}
