/**
 * A PostgreSQL URL without its password (in the user part, or a `password=` parameter), for messages,
 * the start-up summary and what sealed secrets are bound to.
 */
export function withoutPassword(url: string): string {
  return url.replace(/^(\w+:\/\/[^:/@]*):[^@]*@/, "$1@").replace(/([?&])password=[^&]*&?/i, "$1").replace(/[?&]$/, "");
}
