const PROBE_ORIGIN = "http://return-path.invalid";

/**
 * A same-site path to go back to after sign-in, or "/" for anything else: it must start with one
 * "/" (not "//" or "/\", which browsers read as another host) and resolve on our own origin.
 */
export function safeReturnPath(candidate: string | null | undefined): string {
  if (!candidate || !candidate.startsWith("/") || candidate.startsWith("//") || candidate.startsWith("/\\")) return "/";
  if (/[\u0000-\u001f\u007f]/.test(candidate)) return "/";
  let url: URL;
  try {
    url = new URL(candidate, PROBE_ORIGIN);
  } catch {
    return "/";
  }
  if (url.origin !== PROBE_ORIGIN || url.pathname.startsWith("/signin")) return "/";
  return url.pathname + url.search + url.hash;
}

/** The sign-in page, with where to return afterwards. */
export function signInHref(returnPath: string): string {
  const target = safeReturnPath(returnPath);
  return target === "/" ? "/signin" : `/signin?next=${encodeURIComponent(target)}`;
}
