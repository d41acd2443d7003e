// The writer thread of the status actions (see ./status-writer.ts): runs each job on its own
// read-write connection (it may wait inside SQLite for the write lock: no request waits on this thread).
import { runStatusWrite, type StatusWriteJob } from "@/lib/domain/signups/status-write";
import { statusActionAnswer } from "@/lib/api/write-answers";
import { answerCalls } from "./thread-calls";

answerCalls((job: StatusWriteJob) => runStatusWrite(job, statusActionAnswer));
