// The join thread (see ./join-writer.ts): runs each join on its own read-write connection.
import { runJoinJob, type JoinJob } from "@/lib/domain/joining/join";
import { answerCalls } from "./thread-calls";

answerCalls((job: JoinJob) => runJoinJob(job));
