// The status writer thread (./threads.ts, ./writers.ts): runs each status action on its own read-write
// connection (it may wait inside SQLite for the write lock: no request waits on this thread).
import { runStatusWrite, type StatusWriteJob } from "@/lib/domain/signups/status-write";
import { statusActionAnswer } from "@/lib/api/write-answers";
import { leaveCheckpointsToCheckpointer } from "@/lib/sqlite/background-checkpoint";
import { answerCalls } from "./answer-calls";

leaveCheckpointsToCheckpointer();
answerCalls((job: StatusWriteJob) => runStatusWrite(job, statusActionAnswer));
