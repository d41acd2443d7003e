// A reader thread of the dashboard (./threads.ts, ./read-pool.ts): runs named read tasks on its own
// read-only connection.
import { runReadTask, type ReadTaskName } from "@/lib/domain/reads/read-tasks";
import { answerCalls } from "./answer-calls";

answerCalls(async ({ name, args }: { name: ReadTaskName; args: unknown[] }) => runReadTask(name, args as never));
