import { STOP_IMPORT_MESSAGE } from "@/lib/import/events";
import type { ThreadSpec } from "./thread-policy";

// Every thread of the production server, by a typed reference to its file. Each is started and kept
// by ./thread-policy.ts (one restart and one stop policy) and, when it answers calls, called through
// ./thread-calls.ts in the envelope of ./call-envelope.ts. The writers of the database (joins and
// status actions) run once per database, in the primary of a cluster (./writers.ts).
//
//   thread           file                            calls                  where
//   reader           ./read-worker.ts                one at a time          READ_THREADS per process
//   status writer    ./status-worker.ts              one at a time          one per database
//   join writer      ./join-worker.ts                batches (group commit) one per database
//   import           lib/import/import-thread.ts     events, then outcome   one per upload
//   delivery sender  ./delivery-thread.ts            none (a loop)          one per process (a lease in SQLite lets one send)
//   checkpointer     ./checkpoint-thread.ts          none (a loop)          one per database, beside the writers
//   scheduler        ./scheduler-thread.ts           none (a loop)          one per process (a lease in SQLite lets one work)

/** The one message the delivery sender's thread understands: finish the sends in flight, give the lease up, exit. */
export const STOP_SENDER_MESSAGE = "stop-sender";

/** The one message the checkpointer's thread understands: stop checkpointing, close, exit. */
export const STOP_CHECKPOINTER_MESSAGE = "stop-checkpointer";

/** The one message the scheduler's thread understands: stop ticking, give the lease up, exit. */
export const STOP_SCHEDULER_MESSAGE = "stop-scheduler";

/** How long the calls in flight of a reader or a writer get to be answered when the server stops. */
const CALLS_STOP_GRACE_MS = 5_000;
/**
 * How long a stopping import gets to roll back and answer before its thread is ended: it notices
 * between two batches, but not inside a long synchronous stretch (deriving a million rows' counts).
 * Either way nothing of it is written: its transaction never commits.
 */
const IMPORT_STOP_GRACE_MS = 5_000;
/** How long the sender gets to finish its sends in flight (each bounded by its own timeout) and give its lease up. */
const SENDER_STOP_GRACE_MS = 7_000;

export const THREADS = {
  reader: { name: "reader", file: new URL("./read-worker.ts", import.meta.url), stop: { graceMs: CALLS_STOP_GRACE_MS } },
  statusWriter: { name: "status writer", file: new URL("./status-worker.ts", import.meta.url), stop: { graceMs: CALLS_STOP_GRACE_MS } },
  joinWriter: { name: "join writer", file: new URL("./join-worker.ts", import.meta.url), stop: { graceMs: CALLS_STOP_GRACE_MS } },
  import: { name: "import", file: new URL("../import/import-thread.ts", import.meta.url), stop: { message: STOP_IMPORT_MESSAGE, graceMs: IMPORT_STOP_GRACE_MS } },
  deliverySender: { name: "delivery sender", file: new URL("./delivery-thread.ts", import.meta.url), stop: { message: STOP_SENDER_MESSAGE, graceMs: SENDER_STOP_GRACE_MS } },
  checkpointer: { name: "checkpointer", file: new URL("./checkpoint-thread.ts", import.meta.url), stop: { message: STOP_CHECKPOINTER_MESSAGE, graceMs: CALLS_STOP_GRACE_MS } },
  // A tick in progress (a scheduled run of 10,000) finishes before the message is read.
  scheduler: { name: "scheduler", file: new URL("./scheduler-thread.ts", import.meta.url), stop: { message: STOP_SCHEDULER_MESSAGE, graceMs: CALLS_STOP_GRACE_MS } },
} as const satisfies Record<string, ThreadSpec>;

/** The longest stop of any thread: a cluster's primary gives its workers more than that to stop (./primary.ts). */
export const LONGEST_THREAD_STOP_MS = Math.max(...Object.values(THREADS).map((thread) => thread.stop.graceMs));
