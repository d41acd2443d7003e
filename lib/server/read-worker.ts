// A reader thread of the dashboard (see ./read-pool.ts): runs named read tasks on its own read-only
// connection.
import { runReadTask, type ReadTaskName } from "@/lib/domain/reads/read-tasks";
import { answerCalls } from "./thread-calls";

answerCalls(({ name, args }: { name: ReadTaskName; args: unknown[] }) => runReadTask(name, args as never));
