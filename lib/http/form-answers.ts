// The answers of an HTML form's POST, the dashboard's and the join page's alike: a short plain-text
// page for a refusal, or 303 See Other to the page that says how it went. Never cached.

const NO_STORE = { "cache-control": "no-store" };

/** A refusal or failure as a short plain-text page with its status. */
export function plainTextResponse(status: number, message: string): Response {
  return new Response(`${message}\n`, { status, headers: { "content-type": "text/plain; charset=utf-8", ...NO_STORE } });
}

/** 303 See Other: after a write, the browser GETs `location` (a root-relative path). */
export function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { location, ...NO_STORE } });
}
