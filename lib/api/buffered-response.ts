/**
 * A Response whose body is text already in memory. The production server
 * (lib/server/api-routes.ts) writes `bufferedText` as it is; anyone else who reads the body (Next.js,
 * which pipes `body`, or a test) gets it the usual way, from a stream made on first use. A Response
 * made with its body builds that ReadableStream at once, and Node makes every web stream
 * transferable between threads: not building it saved a fifth of the CPU of a small /v1 request
 * (tests/bench/README.md, optimisation 11).
 */
export class BufferedResponse extends Response {
  readonly #text: string;
  #stream: Response | undefined;
  /** The headers, until someone reads `headers`: filling a Headers object validates and sorts every one. */
  #pending: HeaderMap | undefined;

  constructor(text: string, init: { status: number; headers: Record<string, string> }) {
    super(null, { status: init.status });
    this.#text = text;
    this.#pending = new HeaderMap(init.headers);
  }

  override get headers(): Headers {
    const headers = responseHeaders.call(this);
    if (this.#pending) {
      for (const [name, value] of this.#pending) headers.set(name, value);
      this.#pending = undefined;
    }
    return headers;
  }

  /** The headers to read or change without filling a Headers object, for withApiKey and the production server. */
  get editableHeaders(): EditableHeaders {
    return this.#pending ?? this.headers;
  }

  /** The body, for the production server to write without a stream. */
  get bufferedText(): string {
    return this.#text;
  }

  /** The same body as a Response of its own, made once, the first time the body is read as a stream. */
  #streamed(): Response {
    this.#stream ??= new Response(this.#text);
    return this.#stream;
  }

  override get body(): Response["body"] {
    return this.#streamed().body;
  }

  override get bodyUsed(): boolean {
    return this.#stream?.bodyUsed ?? false;
  }

  override text(): Promise<string> {
    return this.#streamed().text();
  }

  override json(): Promise<unknown> {
    return this.#streamed().json();
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.#streamed().arrayBuffer();
  }

  override blob(): Promise<Blob> {
    return this.#streamed().blob();
  }

  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#streamed().bytes();
  }

  override clone(): Response {
    return new BufferedResponse(this.#text, { status: this.status, headers: Object.fromEntries(this.editableHeaders) });
  }
}

/** What withApiKey and the production server do with a response's headers. */
export type EditableHeaders = Pick<Headers, "get" | "has" | "set" | "append"> & Iterable<[string, string]>;

const responseHeaders = Object.getOwnPropertyDescriptor(Response.prototype, "headers")!.get! as (this: Response) => Headers;

/** Headers by lower-case name, combined by ", " on append as Headers does. */
class HeaderMap implements EditableHeaders {
  readonly #values = new Map<string, string>();

  constructor(initial: Record<string, string>) {
    for (const name in initial) this.#values.set(name.toLowerCase(), initial[name]!);
  }

  get(name: string): string | null {
    return this.#values.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.#values.has(name.toLowerCase());
  }

  set(name: string, value: string): void {
    this.#values.set(name.toLowerCase(), value);
  }

  append(name: string, value: string): void {
    const key = name.toLowerCase();
    const current = this.#values.get(key);
    this.#values.set(key, current === undefined ? value : `${current}, ${value}`);
  }

  [Symbol.iterator](): Iterator<[string, string]> {
    return this.#values[Symbol.iterator]();
  }
}
