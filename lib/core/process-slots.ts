// Next.js evaluates a module once per route bundle, and the production server (lib/server) loads its
// own copy: what they must share (the server's threads as pages and routes reach them, the request
// context, the limits, the write-outage state) lives in this one registry, on globalThis, each entry
// under the name the module that declares it gives it, with its type. Nothing else in lib/ touches
// globalThis.

const REGISTRY = Symbol.for("waitlist-admin.process-slots");
const holder = globalThis as typeof globalThis & { [REGISTRY]?: Map<string, unknown> };
const registry = (holder[REGISTRY] ??= new Map<string, unknown>());

/** Something a higher layer provides at start-up (the production server) and a lower one uses when it is there. */
export interface ProcessSlot<T> {
  /** What was provided; undefined without the production server (`next dev`, tests, the CLI). */
  get(): T | undefined;
  provide(value: T): void;
}

export function processSlot<T>(name: string): ProcessSlot<T> {
  return {
    get: () => registry.get(name) as T | undefined,
    provide: (value) => void registry.set(name, value),
  };
}

/** One instance per process of what `create` makes, whichever module graph asks first. */
export function processSingleton<T>(name: string, create: () => T): () => T {
  return () => {
    if (!registry.has(name)) registry.set(name, create());
    return registry.get(name) as T;
  };
}
