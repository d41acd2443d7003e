// Security headers. Kept free of Node and database imports: next.config.ts and proxy.ts use them.

/** On every response (next.config.ts `headers()`, which also covers static files and /v1). */
export const STATIC_SECURITY_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=(), browsing-topics=()",
  // For old browsers without CSP frame-ancestors.
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
};

/**
 * For responses that are never rendered as a page (the JSON API, JS/CSS files): nothing may load
 * from them and nobody may frame them.
 */
export const NO_CONTENT_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** STATIC_SECURITY_HEADERS and NO_CONTENT_CSP as `[name, value, name, value, …]`, the form node:http's writeHead takes. */
export const NO_CONTENT_SECURITY_HEADER_LIST: readonly string[] = [...Object.entries(STATIC_SECURITY_HEADERS).flat(), "Content-Security-Policy", NO_CONTENT_CSP];

/** What a page's CSP may allow beyond the dashboard's: the join page is framed by the embed origins and runs the challenge's workers. */
export interface PageCspOptions {
  /** Origins that may frame the page besides its own; absent: nobody may (`'none'`). */
  frameAncestors?: readonly string[];
  /** Web workers from blob: URLs (the ALTCHA widget builds its proof-of-work workers that way). */
  blobWorkers?: boolean;
}

/**
 * The CSP of pages. Scripts: only those carrying this request's nonce (Next.js adds it to its own
 * scripts when it sees the policy on the request) and what they load ('strict-dynamic'); no inline
 * script otherwise. Styles allow 'unsafe-inline': React writes `style` attributes (recharts sizes
 * and positions its SVG with them, Next.js's route announcer and error overlay too) and style
 * attributes cannot carry a nonce; injected CSS cannot run code, so the risk is limited to
 * presentation. `'unsafe-eval'` only under `next dev`, where React needs it for error stacks.
 */
export function pageCsp(nonce: string, dev = false, options: PageCspOptions = {}): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    ...(options.blobWorkers ? ["worker-src 'self' blob:"] : []),
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${options.frameAncestors ? ["'self'", ...options.frameAncestors].join(" ") : "'none'"}`,
  ].join("; ");
}

/** A fresh nonce per request: 128 random bits, base64. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}
