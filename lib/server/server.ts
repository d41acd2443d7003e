// The production server (started by ./main.ts). Next.js's request handler behind a small node:http server
// that gives every request an id and a client address (lib/http/request-context) and writes one JSON log
// line when the response is finished, with its real status and duration.
import cluster from "node:cluster";
import { randomUUID } from "node:crypto";
import type { Socket } from "node:net";
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import next from "next";
import { peerAddress, resolveClientAddress } from "@/lib/http/client-address";
import { env } from "@/lib/core/env";
import { NO_CONTENT_CSP, NO_CONTENT_SECURITY_HEADER_LIST, STATIC_SECURITY_HEADERS } from "@/lib/http/security-headers";
import { requestContextStorage, type RequestContext } from "@/lib/http/request-context";
import { serveApi } from "./api-routes";
import { compressWhenWritten } from "@/lib/http/compression";
import { isApiPath } from "@/lib/http/api-path";
import { batchedLineWriter, logWhenDone } from "./request-log";
import { bodyCheckOf, checkedBody, REFUSED_BODY_LINGER_MS } from "./form-body";
import { bodyTooLargeMessage } from "@/lib/http/body-limit";
import { listenErrorMessage } from "@/lib/http/listen";
import { escapeMalformedPath, refuseUnhandledRequest } from "./refuse";
import { provideConnectionPoolReads, provideReadPool } from "./read-pool";
import { provideImportRunner, stopImports } from "./import-runner";
import { provideBatchedJoins, provideWriters, startWriterThreads } from "./writers";
import { primaryWriters } from "./cluster-writers";
import { startDeliverySender } from "./delivery-runner";
import { startScheduler } from "./scheduler-runner";
import { stopThreads } from "./thread-policy";
import { removeLeftoverUploads } from "@/lib/dashboard/upload-file";
import { watchErasures } from "@/lib/domain/signups/erase";
import { announceListening, failStart, serverUrl, writeLog } from "./cluster-link";

export async function startServer() {
  const { PORT, HOST, TRUSTED_PROXY_HOPS, REQUEST_LOG, READ_THREADS, DATABASE_URL } = env();
  const app = next({ dev: false, dir: process.cwd(), hostname: HOST ?? "localhost", port: PORT });
  const handle = app.getRequestHandler();
  await app.prepare();
  provideImportRunner();
  // PostgreSQL works in its own processes and takes concurrent writers: reads and writes run here,
  // each on a pooled connection. SQLite's connections block the thread that runs them: its heavy
  // reads go to reader threads, and its writes to one writer per database.
  if (!DATABASE_URL) {
    provideReadPool(READ_THREADS);
    // A worker of a cluster hands its writes to the primary's writers.
    provideWriters(cluster.isWorker ? primaryWriters() : startWriterThreads());
  } else {
    provideConnectionPoolReads();
    provideBatchedJoins();
  }
  startDeliverySender();
  startScheduler();
  await watchErasures();
  const storage = requestContextStorage();
  const writeLine = batchedLineWriter(writeLog);

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const context: RequestContext = {
      requestId: randomUUID(),
      clientAddress: resolveClientAddress(peerAddress(request.socket), request.headers["x-forwarded-for"], TRUSTED_PROXY_HOPS),
    };
    if (REQUEST_LOG === "on") logWhenDone(request, response, context, writeLine);
    // /v1 (and `//v1/…`, which it redirects): the API's dispatcher; Next.js never sees it.
    if (isApiPath((request.url ?? "/").replace(/^\/{2,}/, "/"))) return serve(context, response, () => serveApi(request, response));
    response.setHeader("Request-Id", context.requestId);
    // Every response, including Next.js's own redirects and errors; pages replace the CSP with
    // their nonce policy (proxy.ts).
    for (let index = 0; index < NO_CONTENT_SECURITY_HEADER_LIST.length; index += 2) response.setHeader(NO_CONTENT_SECURITY_HEADER_LIST[index]!, NO_CONTENT_SECURITY_HEADER_LIST[index + 1]!);
    if (refuseUnhandledRequest(request, response)) return;
    escapeMalformedPath(request);
    serve(context, response, () => forward(request, response));
  });

  /** Runs `respond` in the request's context; an error it throws is a 500, logged with the request's id. */
  function serve(context: RequestContext, response: ServerResponse, respond: () => Promise<unknown>) {
    storage.run(context, () => {
      respond().catch((error: unknown) => {
        console.error(`[request ${context.requestId}] unhandled`, error);
        if (!response.headersSent) response.writeHead(500, ["Request-Id", context.requestId, ...NO_CONTENT_SECURITY_HEADER_LIST]);
        response.end();
      });
    });
  }

  /**
   * Hands the request to Next.js (a write's body only once it is known to be within its bound, and a
   * multipart one to parse: ./form-body.ts).
   * Next.js compresses pages, but not route handlers' bodies (the CSV export): compressWhenWritten
   * does, unless Next.js already encoded the response.
   */
  async function forward(request: IncomingMessage, response: ServerResponse) {
    compressWhenWritten(request, response);
    const check = bodyCheckOf(request);
    if (!check) return handle(request, response);
    const checked = await checkedBody(request, check);
    if (checked === "aborted") return void response.destroy();
    if (typeof checked !== "number") return handle(checked, response);
    response.statusCode = checked;
    response.setHeader("Content-Type", "text/plain; charset=utf-8");
    response.setHeader("Cache-Control", "no-store");
    // A refused body is left unread (./form-body.ts): the connection is closed a moment after the answer.
    if (checked === 413) response.once("finish", () => setTimeout(() => request.socket.destroy(), REFUSED_BODY_LINGER_MS).unref());
    response.end(`${checked === 400 ? "Bad Request: malformed form data" : bodyTooLargeMessage(check.limit)}\n`);
  }
  // Requests Node cannot parse (an unknown method, enormous headers, a broken request line) never
  // reach Next.js: answer them here, with the same security headers, and log them.
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || error.code === "ECONNRESET") return socket.destroy();
    const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : 400;
    const headers = Object.entries(STATIC_SECURITY_HEADERS).map(([name, value]) => `${name}: ${value}\r\n`).join("");
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${headers}Content-Security-Policy: ${NO_CONTENT_CSP}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
    if (REQUEST_LOG === "on") {
      const line = { time: new Date().toISOString(), level: "info", msg: "unparsable request", status, error: error.code ?? "unknown", client: (socket as Socket).remoteAddress ?? "unknown" };
      writeLine(JSON.stringify(line));
    }
  });
  // Next.js's uncaughtException handler would log a listen error (twice) and let the process exit 0.
  const onListenError = (error: NodeJS.ErrnoException) => failStart(`error: ${listenErrorMessage(error, PORT, HOST)}`);
  server.once("error", onListenError);
  server.listen(PORT, HOST, () => {
    server.off("error", onListenError);
    // Only a server that started clears what killed servers' uploads left: one that fails touches nothing.
    removeLeftoverUploads();
    announceListening(serverUrl(HOST, PORT));
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      server.close(() => process.exit(0));
      // Running imports roll back and answer their uploads before the connections are cut.
      void Promise.all([stopImports(), stopThreads()]).finally(() => server.closeAllConnections());
    });
  }
}
