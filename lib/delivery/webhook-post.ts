import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { Webhook } from "standardwebhooks";
import type { Outcome } from "@/lib/domain/deliveries/sending";
import { checkConnectedPeer, refuseLiteralAddress, safeLookup } from "@/lib/http/safe-target";

// One webhook attempt: a POST of the JSON body signed as Standard Webhooks says (webhook-id,
// webhook-timestamp, webhook-signature over "id.timestamp.body" with the endpoint's secret). It
// counts only when a 2xx answer has arrived whole within the timeout; a redirect is not followed.

export interface WebhookRequest {
  url: string;
  /** The endpoint's `whsec_…` secret. */
  secret: string;
  /** The `webhook-id`: the event's, the same on every attempt. */
  messageId: string;
  body: string;
  timeoutMs: number;
  /** WEBHOOK_ALLOW_PRIVATE=1: loopback and private addresses may be reached. */
  allowPrivate: boolean;
  now?: Date;
}

/** The most of a receiver's answer kept in the log. */
const ANSWER_SHOWN = 200;
/** The most of an answer read at all: the rest is discarded. */
const ANSWER_READ = 64 * 1024;

const agents = {
  safe: { "http:": new HttpAgent({ keepAlive: true, lookup: safeLookup }), "https:": new HttpsAgent({ keepAlive: true, lookup: safeLookup }) },
  open: { "http:": new HttpAgent({ keepAlive: true }), "https:": new HttpsAgent({ keepAlive: true }) },
};

/** The three Standard Webhooks headers of a body. */
export function signatureHeaders(secret: string, messageId: string, body: string, at: Date): Record<string, string> {
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(messageId, at, body),
  };
}

function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as NodeJS.ErrnoException).code;
  return code && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
}

/** Sends one attempt; never throws: every failure is an Outcome the log can show. */
export function postWebhook(attempt: WebhookRequest): Promise<Outcome> {
  return new Promise((resolve) => {
    let settled = false;
    let request: ClientRequest | undefined;
    const finish = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const timer = setTimeout(() => {
      finish({ kind: "failed", error: `no complete answer within ${attempt.timeoutMs / 1000} s` });
      request?.destroy();
    }, attempt.timeoutMs);
    try {
      const url = new URL(attempt.url);
      if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error(`${url.protocol} URLs cannot receive webhooks`);
      if (!attempt.allowPrivate) refuseLiteralAddress(url);
      const headers = {
        "Content-Type": "application/json",
        "User-Agent": "Waitlist-Admin-Webhooks/1",
        ...signatureHeaders(attempt.secret, attempt.messageId, attempt.body, attempt.now ?? new Date()),
      };
      const send = url.protocol === "https:" ? httpsRequest : httpRequest;
      request = send(url, { method: "POST", headers, agent: (attempt.allowPrivate ? agents.open : agents.safe)[url.protocol] });
      if (!attempt.allowPrivate) {
        request.on("socket", (socket) => {
          const check = () => {
            try {
              checkConnectedPeer(url.hostname, socket.remoteAddress);
            } catch (error) {
              request!.destroy(error as Error);
            }
          };
          if (socket.remoteAddress !== undefined && !socket.connecting) check();
          else socket.once("connect", check);
        });
      }
      request.on("response", (response: IncomingMessage) => readAnswer(response, finish));
      request.on("error", (error) => finish({ kind: "failed", error: errorText(error) }));
      request.end(attempt.body);
    } catch (error) {
      finish({ kind: "failed", error: errorText(error) });
    }
  });
}

function readAnswer(response: IncomingMessage, finish: (outcome: Outcome) => void): void {
  const status = response.statusCode ?? 0;
  const chunks: Buffer[] = [];
  let length = 0;
  response.on("data", (chunk: Buffer) => {
    if (length < ANSWER_READ) chunks.push(chunk);
    length += chunk.length;
  });
  response.on("aborted", () => finish({ kind: "failed", response: String(status), error: `HTTP ${status}, then the connection closed before the answer was complete` }));
  response.on("error", (error) => finish({ kind: "failed", response: String(status), error: `HTTP ${status}, then ${errorText(error)}` }));
  response.on("end", () => {
    if (status >= 200 && status < 300) return finish({ kind: "sent", response: String(status) });
    const text = Buffer.concat(chunks).toString("utf8").replace(/\s+/g, " ").trim().slice(0, ANSWER_SHOWN);
    const why = status >= 300 && status < 400 ? `a redirect${response.headers.location ? ` to ${response.headers.location}` : ""}, not followed` : text || "no body";
    finish({ kind: "failed", response: String(status), error: `HTTP ${status}: ${why}` });
  });
}
