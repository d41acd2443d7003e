// The join writer thread (./threads.ts, ./writers.ts): runs the joins on its own read-write
// connection, in batches (./join-batches.ts).
import { prepareWriterConnection } from "@/lib/sqlite/writer-connection";
import { answerBatches } from "./answer-calls";
import { MAX_JOIN_BATCH, runJoinBatch } from "./join-batches";

prepareWriterConnection();
answerBatches(runJoinBatch, MAX_JOIN_BATCH);
