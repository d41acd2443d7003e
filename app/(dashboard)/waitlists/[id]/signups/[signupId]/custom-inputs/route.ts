import { requireSession } from "@/lib/dashboard/auth";
import { findWaitlist } from "../../../find-waitlist";
import { findSignup } from "../find-signup";

// GET /waitlists/{id}/signups/{signupId}/custom-inputs – every custom input of one signup, as the stored JSON
// (the signup's page shows a bounded part of them and links here)
export async function GET(_request: Request, { params }: { params: Promise<{ id: string; signupId: string }> }) {
  await requireSession();
  const { id, signupId } = await params;
  const waitlist = await findWaitlist(id);
  const signup = waitlist ? await findSignup(waitlist.id, signupId) : undefined;
  if (!waitlist || !signup) return new Response("No signup of this waitlist has this id.\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  return new Response(JSON.stringify(signup.customInputs), {
    headers: {
      "content-type": "application/json; charset=utf-8",
      // Shown in the browser; saved under a name that says what it is.
      "content-disposition": `inline; filename="signup-${signupId}-custom-inputs.json"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
