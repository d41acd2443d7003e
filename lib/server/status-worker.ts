// The status writer thread (./threads.ts, ./writers.ts): runs each status action, and each redeem of an
// invite token (a `complete` checked against its token), on its own read-write connection (it may wait
// inside SQLite for the write lock: no request waits on this thread).
import { runRedeem, type RedeemJob } from "@/lib/domain/invitations/redeem";
import { runStatusWrite, type StatusWriteJob } from "@/lib/domain/signups/status-write";
import { statusActionAnswer } from "@/lib/api/write-answers";
import { prepareWriterConnection } from "@/lib/sqlite/writer-connection";
import { answerCalls } from "./answer-calls";

prepareWriterConnection();
answerCalls(async (job: StatusWriteJob | { redeem: RedeemJob }) => ("redeem" in job ? await runRedeem(job.redeem) : await runStatusWrite(job, statusActionAnswer)));
