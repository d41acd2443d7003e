import { joinLogoOf, joinLogoVersion } from "@/lib/domain/branding/logo";
import { plainTextResponse } from "@/lib/http/form-answers";
import { waitlistOfPath } from "@/lib/join/public-form";

// GET /join/{waitlistId}/logo – the join page's logo, from the database, in the type its bytes say.
// Asked for by its current version (?v=, lib/join/brand.ts) it is cached for a year; otherwise for five minutes.
export async function GET(request: Request, { params }: { params: Promise<{ waitlistId: string }> }) {
  const waitlist = await waitlistOfPath((await params).waitlistId);
  const logo = waitlist ? await joinLogoOf(waitlist.id) : undefined;
  if (!waitlist || !logo) return plainTextResponse(404, "Not found: this waitlist has no logo.");
  const current = new URL(request.url).searchParams.get("v") === String(await joinLogoVersion(waitlist.id));
  return new Response(new Uint8Array(logo.bytes), {
    headers: {
      "content-type": logo.contentType,
      "content-length": String(logo.bytes.length),
      "cache-control": current ? "public, max-age=31536000, immutable" : "public, max-age=300",
      "x-content-type-options": "nosniff",
    },
  });
}
