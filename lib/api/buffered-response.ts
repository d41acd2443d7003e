/**
 * A Response whose body is text already in memory. The production server's fast path
 * (lib/server/api-routes.ts) writes `bufferedText` as it is; anyone else who reads the body (Next.js,
 * which pipes `body`, or a test) gets it the usual way, from a stream made on first use. A Response
 * made with its body builds that ReadableStream at once, and Node makes every web stream
 * transferable between threads: not building it saved a fifth of the CPU of a small /v1 request
 * (tests/bench/README.md, optimisation 11).
 */
export class BufferedResponse extends Response {
  readonly #text: string;
  #stream: Response | undefined;

  constructor(text: string, init: ResponseInit) {
    super(null, init);
    this.#text = text;
  }

  /** The body, for the fast path to write without a stream. */
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
    return new BufferedResponse(this.#text, { status: this.status, statusText: this.statusText, headers: this.headers });
  }
}
