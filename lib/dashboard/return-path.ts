import type { SessionEndReason } from "@/lib/domain/sessions";

const PROBE_ORIGIN = "http://return-path.invalid";

/** Starts with exactly one "/": "//x" and "/\x" are read by browsers as the host "x". */
function isRootRelative(path: string): boolean {
  return path.startsWith("/") && path[1] !== "/" && path[1] !== "\\";
}

/** The path, query and fragment of `candidate` resolved against our origin, or null when it leaves it. */
function resolveOnOurOrigin(candidate: string): string | null {
  let url: URL;
  try {
    url = new URL(candidate, PROBE_ORIGIN);
  } catch {
    return null;
  }
  return url.origin === PROBE_ORIGIN ? url.pathname + url.search + url.hash : null;
}

/**
 * A same-site path to go back to after sign-in, or "/" for anything else. Both the input and the
 * result must start with exactly one "/" and resolve on our origin: resolving removes dot segments,
 * which turns "/.//evil.example", "/..//x" or "/%2e//x" into "//evil.example", another host.
 */
export function safeReturnPath(candidate: string | null | undefined): string {
  if (!candidate || !isRootRelative(candidate) || /[\u0000-\u001f\u007f]/.test(candidate)) return "/";
  const resolved = resolveOnOurOrigin(candidate);
  if (resolved === null || !isRootRelative(resolved) || resolveOnOurOrigin(resolved) !== resolved) return "/";
  return resolved.startsWith("/signin") ? "/" : resolved;
}

/** The sign-in page, with where to return afterwards and, when a session just ended, why. */
export function signInHref(returnPath: string, reason?: SessionEndReason): string {
  const target = safeReturnPath(returnPath);
  const query = [reason && `reason=${reason}`, target !== "/" && `next=${encodeURIComponent(target)}`].filter(Boolean);
  return query.length ? `/signin?${query.join("&")}` : "/signin";
}
