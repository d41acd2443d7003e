import type { OutgoingHttpHeaders, ServerResponse } from "node:http";

type WriteHeadArgs = [statusCode: number, reasonOrHeaders?: string | OutgoingHttpHeaders | unknown[], headers?: OutgoingHttpHeaders | unknown[]];

/**
 * Runs `listener` once, just before the response's headers are fixed: whoever writes the response
 * (Next.js, a pipe, res.end), Node fixes them in writeHead, which write/end/flushHeaders call when it
 * was not called before. Headers handed to writeHead itself are set first, so the listener sees
 * them all and may still change them (the technique of the `on-headers` package).
 */
export function onHeaders(response: ServerResponse, listener: () => void): void {
  const writeHead = response.writeHead as (this: ServerResponse, statusCode: number, reason?: string) => ServerResponse;
  let fired = false;
  response.writeHead = function (this: ServerResponse, ...[statusCode, reasonOrHeaders, headers]: WriteHeadArgs) {
    if (fired) return writeHead.apply(this, [statusCode, reasonOrHeaders, headers] as never);
    fired = true;
    this.statusCode = statusCode;
    if (typeof reasonOrHeaders === "string") this.statusMessage = reasonOrHeaders;
    for (const given of [reasonOrHeaders, headers]) {
      if (Array.isArray(given)) {
        // Node also accepts [name, value, name, value, …].
        for (let index = 0; index + 1 < given.length; index += 2) this.setHeader(String(given[index]), given[index + 1] as string);
      } else if (given && typeof given === "object") {
        for (const [name, value] of Object.entries(given)) if (value !== undefined) this.setHeader(name, value);
      }
    }
    listener();
    // Without a reason of its own, Node fills in the standard one (as it would have).
    return typeof reasonOrHeaders === "string" ? writeHead.call(this, this.statusCode, reasonOrHeaders) : writeHead.call(this, this.statusCode);
  } as ServerResponse["writeHead"];
}

/** Adds `token` to the response's Vary header unless it is there (or Vary is `*`). */
export function addVary(response: ServerResponse, token: string): void {
  const current = response.getHeader("Vary");
  const merged = varyWith(Array.isArray(current) ? current.join(",") : current === undefined ? null : String(current), token);
  if (merged !== current) response.setHeader("Vary", merged);
}

/** A Vary value with `token` added unless it is there (or the value is `*`). */
export function varyWith(current: string | null, token: string): string {
  if (!current) return token;
  const tokens = current
    .split(",")
    .map((each) => each.trim())
    .filter(Boolean);
  if (tokens.includes("*") || tokens.some((each) => each.toLowerCase() === token.toLowerCase())) return current;
  return [...tokens, token].join(", ");
}
