import "server-only";
import { z } from "zod";
import { signupWithStatusSchema, toSignupWithStatus } from "../signups/response";
import type { SignupRow } from "../signups/row";
import type { InviteClaims } from "./token";

// The /v1 answer about an invitation (GET /v1/invitations/{token} and its redeem): the same object
// for a valid and a redeemed one, so a second redeem answers what the first did.

export const invitationResponseSchema = z
  .strictObject({
    state: z.enum(["valid", "redeemed"]).meta({ description: "`valid`: the signup is invited by this token and may redeem it. `redeemed`: the signup was completed while invited by it." }),
    waitlist_id: z.string().meta({ format: "uuid", description: "The signup's waitlist." }),
    signup: signupWithStatusSchema,
    invited_at: z.string().meta({ format: "date-time", description: "When the signup was invited (ISO 8601 UTC)." }),
    expires_at: z.string().meta({ format: "date-time", description: "When the token stops being accepted (ISO 8601 UTC)." }),
  })
  .meta({ description: "An invitation, by its token: its state, the signup (its address and answers, its status) and its waitlist, and when it expires." });
export type InvitationResponse = z.infer<typeof invitationResponseSchema>;

export function toInvitationResponse(state: "valid" | "redeemed", signup: SignupRow, claims: InviteClaims): InvitationResponse {
  return { state, waitlist_id: claims.waitlistId, signup: toSignupWithStatus(signup), invited_at: new Date(claims.invitedAt).toISOString(), expires_at: claims.expiresAt.toISOString() };
}
