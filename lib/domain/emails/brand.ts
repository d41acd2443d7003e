import "server-only";
import { getDb, type AppDatabase } from "@/db/client";
import { DEFAULT_ACCENT_COLOR } from "../branding/accent-color";
import { joinLogoVersion } from "../branding/logo";
import { joinSettingsOf } from "../joining/settings";
import { getWaitlist } from "../waitlists/queries";
import type { EmailBrand } from "./layout";

// A waitlist's brand as its emails show it (./layout.ts): its name and website, the join page's
// accent colour, and its logo, served by the app (/join/{id}/logo, versioned like the join page's),
// only when PUBLIC_URL is https: an email client fetches an image from the internet, over TLS.

/** The brand of a waitlist's emails; undefined for a waitlist that no longer exists. */
export async function emailBrandOf(waitlistId: string, publicUrl: string, db: AppDatabase = getDb()): Promise<EmailBrand | undefined> {
  const waitlist = await getWaitlist(waitlistId, db);
  if (!waitlist) return undefined;
  const version = /^https:\/\//i.test(publicUrl) ? await joinLogoVersion(waitlist.id, db) : undefined;
  return {
    name: waitlist.name,
    website: waitlist.website,
    accentColor: (await joinSettingsOf(waitlist.id, db)).accentColor || DEFAULT_ACCENT_COLOR,
    ...(version === undefined ? {} : { logoUrl: `${publicUrl}/join/${waitlist.id}/logo?v=${version}` }),
  };
}
