import type { RecordedAnswer } from "@/lib/domain/idempotency";
import { toAlreadyOnListResponse, toJoinedSignupResponse } from "@/lib/domain/joining/join";
import { type JoinReply } from "@/lib/domain/joining/join-input";
import type { StatusWriteResult } from "@/lib/domain/signups/status-write";

// The /v1 answers of the writes, as their status code and JSON body: built where the write runs, in
// its transaction, which keeps them for an Idempotency-Key (lib/domain/idempotency.ts), so a replay
// gives the same bytes. The server's writer threads record with these too (lib/server/*-worker.ts).

/** POST /v1/waitlist/{id}/signup: 201 with the new signup; 200 for an address already on the list, saying nothing stored about it. */
export function joinAnswer(reply: JoinReply): RecordedAnswer {
  if (reply.created) return { code: 201, body: JSON.stringify(toJoinedSignupResponse(reply.signup)) };
  return { code: 200, body: JSON.stringify(toAlreadyOnListResponse(reply.email, reply.emailSent)) };
}

/** POST /v1/waitlist/{id}/signup/{action}: 200 with the counts and the changed signups. */
export function statusActionAnswer(result: StatusWriteResult): RecordedAnswer {
  return { code: 200, body: JSON.stringify(result) };
}
