/** Counts what each key holds (concurrent CSV exports per session); a key's entry disappears when it holds nothing. */
export class SlotPool {
  private readonly held = new Map<string, number>();

  constructor(readonly slotsPerKey: number) {}

  /** Takes one of `key`'s slots, or returns null when all are in use. The release may be called any number of times. */
  take(key: string): (() => void) | null {
    const count = this.held.get(key) ?? 0;
    if (count >= this.slotsPerKey) return null;
    this.held.set(key, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.held.get(key) ?? 1) - 1;
      if (left > 0) this.held.set(key, left);
      else this.held.delete(key);
    };
  }

  inUse(key: string): number {
    return this.held.get(key) ?? 0;
  }
}
