import "server-only";
import { joinSettingsOf } from "@/lib/domain/joining/settings";
import { isWaitlistId } from "@/lib/domain/waitlists/id";
import type { PageCspOptions } from "@/lib/http/security-headers";

/** The public pages of a waitlist's join form: the form, the result, the confirmation, the challenge. */
const JOIN_PATH = /^\/join\/([^/]+)(\/|$)/;

/**
 * The CSP options of a join page: framed by its own origin and the waitlist's embed origins (its
 * join settings), running the challenge's workers. Undefined for any other path.
 */
export async function joinPageCspOptions(pathname: string): Promise<PageCspOptions | undefined> {
  const id = JOIN_PATH.exec(pathname)?.[1];
  if (id === undefined) return undefined;
  const embedOrigins = isWaitlistId(id) ? (await joinSettingsOf(id.toLowerCase())).embedOrigins : [];
  return { frameAncestors: embedOrigins, blobWorkers: true };
}
