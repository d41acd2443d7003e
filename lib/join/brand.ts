import "server-only";
import type { Metadata } from "next";
import { env } from "@/lib/core/env";
import { joinLogoVersion } from "@/lib/domain/branding/logo";
import { descriptionText } from "@/lib/domain/branding/markdown";
import type { JoinSettings } from "@/lib/domain/joining/settings";
import type { JoinPageWaitlist } from "./public-form";

// A waitlist's brand as its public pages show it: the logo's URL (versioned, so it is cached for
// good and a new logo shows at once), the accent colour, the headline; and the page's metadata, with
// the Open Graph card the app draws (./og-card.tsx), in absolute URLs from PUBLIC_URL.

export interface JoinBrand {
  logoUrl?: string;
  logoAlt: string;
  accentColor?: string;
}

/** The logo's path with its version, or undefined without a logo. */
export async function logoPathOf(waitlistId: string): Promise<string | undefined> {
  const version = await joinLogoVersion(waitlistId);
  return version === undefined ? undefined : `/join/${waitlistId}/logo?v=${version}`;
}

export async function joinBrandOf(waitlist: JoinPageWaitlist, settings: Pick<JoinSettings, "accentColor">): Promise<JoinBrand> {
  return { logoUrl: await logoPathOf(waitlist.id), logoAlt: `${waitlist.name} logo`, accentColor: settings.accentColor || undefined };
}

/** The join page's title: the headline, else "Join the … waitlist". */
export function joinTitleOf(waitlist: JoinPageWaitlist, settings: Pick<JoinSettings, "headline">): string {
  return settings.headline || `Join the ${waitlist.name} waitlist`;
}

/** The Open Graph card's size, the one every network shows large. */
export const OG_CARD_SIZE = { width: 1200, height: 630 };

/** The join page's metadata: its title, and the card a shared link previews as (og:, twitter:). */
export function joinPageMetadata(waitlist: JoinPageWaitlist, settings: Pick<JoinSettings, "headline" | "description">): Metadata {
  const origin = env().PUBLIC_URL;
  const title = joinTitleOf(waitlist, settings);
  const description = descriptionText(settings.description).slice(0, 300) || `Leave your email address to get your place in line on the ${waitlist.name} waitlist.`;
  const image = { url: `${origin}/join/${waitlist.id}/card.png`, ...OG_CARD_SIZE, alt: title };
  return {
    metadataBase: new URL(origin),
    title: { absolute: title },
    description,
    openGraph: { type: "website", url: `${origin}/join/${waitlist.id}`, title, description, siteName: waitlist.name, images: [image] },
    twitter: { card: "summary_large_image", title, description, images: [image.url] },
  };
}
