import "server-only";
import { personalDataOf } from "@/lib/domain/people/personal-data";
import { plainTextResponse } from "@/lib/http/form-answers";
import { readPersonToken } from "./person-view";
import { waitlistOfPath } from "./public-form";

/** GET /join/{id}/me/download?t=…: the person's data as a JSON file to save (lib/domain/people/personal-data.ts). */
export async function personalDataDownload(pathId: string, token: string | null): Promise<Response> {
  const waitlist = await waitlistOfPath(pathId);
  if (!waitlist) return plainTextResponse(404, "Not found: this waitlist does not exist.");
  const reading = await readPersonToken(waitlist.id, token);
  if (!reading.ok) return plainTextResponse(reading.reason === "expired" ? 410 : 400, "This link does not work any more: ask for a new one on the join page.");
  const data = await personalDataOf(waitlist.id, reading.signupId);
  if (!data) return plainTextResponse(404, "Not on this list: this signup no longer exists.");
  return new Response(`${JSON.stringify(data, null, 2)}\n`, {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="my-data-${waitlist.id}.json"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
