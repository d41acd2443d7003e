import { ImageResponse } from "next/og";
import { DEFAULT_ACCENT_COLOR as DEFAULT_ACCENT } from "@/lib/domain/branding/accent-color";
import { joinLogoOf } from "@/lib/domain/branding/logo";
import { sniffImage } from "@/lib/domain/branding/image-type";
import { descriptionText } from "@/lib/domain/branding/markdown";
import { joinSettingsOf } from "@/lib/domain/joining/settings";
import { plainTextResponse } from "@/lib/http/form-answers";
import { joinTitleOf, OG_CARD_SIZE } from "@/lib/join/brand";
import { drawableText } from "@/lib/join/og-text";
import { waitlistOfPath } from "@/lib/join/public-form";

// GET /join/{waitlistId}/card.png – the Open Graph card of the join page (og:image): the headline, the
// description, the logo and the accent colour, drawn by the app (next/og, offline: lib/join/og-text.ts).

const LOGO_HEIGHT = 96;

/** The logo as a data URL the card can draw (PNG or JPEG: the card's renderer draws no WebP), with its width at LOGO_HEIGHT. */
async function drawableLogo(waitlistId: string): Promise<{ src: string; width: number } | undefined> {
  const logo = await joinLogoOf(waitlistId);
  if (!logo || logo.contentType === "image/webp") return undefined;
  const image = sniffImage(logo.bytes);
  if ("problem" in image) return undefined;
  return { src: `data:${logo.contentType};base64,${logo.bytes.toString("base64")}`, width: Math.min(600, Math.round((LOGO_HEIGHT * image.width) / image.height)) };
}

export async function GET(_request: Request, { params }: { params: Promise<{ waitlistId: string }> }) {
  const waitlist = await waitlistOfPath((await params).waitlistId);
  if (!waitlist) return plainTextResponse(404, "Not found: this waitlist does not exist.");
  const settings = await joinSettingsOf(waitlist.id);
  const accent = settings.accentColor || DEFAULT_ACCENT;
  const logo = await drawableLogo(waitlist.id);
  const description = drawableText(descriptionText(settings.description), 160);
  return new ImageResponse(
    (
      <div style={{ display: "flex", flexDirection: "column", width: "100%", height: "100%", background: "#ffffff", borderTop: `24px solid ${accent}`, padding: "64px 80px", color: "#18181b" }}>
        {logo ? (
          // eslint-disable-next-line @next/next/no-img-element
          <img src={logo.src} width={logo.width} height={LOGO_HEIGHT} alt="" style={{ objectFit: "contain", marginBottom: 40 }} />
        ) : null}
        <div style={{ display: "flex", fontSize: 68, fontWeight: 700, lineHeight: 1.15 }}>{drawableText(joinTitleOf(waitlist, settings), 90)}</div>
        {description ? <div style={{ display: "flex", marginTop: 28, fontSize: 34, lineHeight: 1.35, color: "#3f3f46" }}>{description}</div> : null}
        <div style={{ display: "flex", marginTop: "auto", alignItems: "center" }}>
          <div style={{ display: "flex", background: accent, color: "#ffffff", borderRadius: 12, padding: "16px 32px", fontSize: 32 }}>Join the waitlist</div>
        </div>
      </div>
    ),
    { ...OG_CARD_SIZE, headers: { "cache-control": "public, max-age=600" } },
  );
}
