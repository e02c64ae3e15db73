/**
 * Stops a run that can only burn rows (architecture.md, "Retries"): after `threshold` claims in a
 * row fail on the service's side (each already retried by the client), the service is taken to be
 * down. The run then stops pulling claims, records what it has, and exits 3, resumable.
 */
export class CircuitBreaker {
  private consecutive = 0;
  private reason: string | undefined;

  constructor(readonly threshold: number) {}

  /** Claims failed in a row on the service's side so far: the progress line shows it (issue 29). */
  get failuresInARow(): number {
    return this.consecutive;
  }

  succeeded(): void {
    this.consecutive = 0;
  }

  failed(description: string): void {
    this.consecutive++;
    if (this.consecutive >= this.threshold && this.reason === undefined) {
      this.reason = `${this.consecutive} claims failed in a row; the last: ${description}`;
    }
  }

  /** Opens at once, whatever the count (a refused key will not get better). */
  trip(reason: string): void {
    this.reason ??= reason;
  }

  get open(): boolean {
    return this.reason !== undefined;
  }

  get why(): string | undefined {
    return this.reason;
  }
}
