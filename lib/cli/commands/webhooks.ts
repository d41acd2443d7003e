import type { Command } from "commander";
import { AppError } from "@/lib/core/errors";
import { sendTestEvent } from "@/lib/delivery/send-test";
import { CLI_ACTOR } from "@/lib/domain/audit/log";
import { deliveryQuerySchema, listDeliveries, resendDelivery, type DeliveryView } from "@/lib/domain/deliveries/queries";
import { EVENT_TYPES } from "@/lib/domain/events";
import {
  addEndpoint,
  addEndpointSchema,
  disableEndpoint,
  getEndpointOrThrow,
  listEndpoints,
  removeEndpoint,
  rotateEndpointSecret,
  updateEndpoint,
  updateEndpointSchema,
  type EndpointView,
} from "@/lib/domain/webhooks/endpoints";
import { emit, parseOptions, table, type JsonOption } from "../output";

/** An endpoint in --json output: snake_case like the rest of the CLI's JSON. */
function endpointJson(endpoint: EndpointView) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    waitlist_id: endpoint.waitlistId,
    events: endpoint.eventTypes,
    enabled: endpoint.enabled,
    disabled_reason: endpoint.disabledReason,
    failing_since: endpoint.failingSince?.toISOString() ?? null,
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
  };
}

function deliveryJson(delivery: DeliveryView) {
  return {
    id: delivery.id,
    event_id: delivery.eventId,
    type: delivery.eventType,
    waitlist_id: delivery.waitlistId,
    channel: delivery.channel,
    endpoint_id: delivery.endpointId,
    target: delivery.target,
    state: delivery.state,
    attempts: delivery.attempts,
    next_attempt_at: delivery.nextAttemptAt?.toISOString() ?? null,
    last_attempt_at: delivery.lastAttemptAt?.toISOString() ?? null,
    last_response: delivery.lastResponse,
    last_error: delivery.lastError,
    created_at: delivery.createdAt.toISOString(),
  };
}

/** `a,b` as a list; `all` (or nothing) as null: every waitlist, every type. */
function listOrAll(value: string | undefined): string[] | null | undefined {
  if (value === undefined) return undefined;
  return value.trim() === "all" ? null : value.split(",").map((each) => each.trim());
}

function scope(endpoint: EndpointView): string {
  return `${endpoint.waitlistId ? `waitlist ${endpoint.waitlistId}` : "every waitlist"}; ${endpoint.eventTypes?.join(", ") ?? "every event"}`;
}

function parseDeliveryId(text: string): number {
  if (!/^[1-9][0-9]{0,15}$/.test(text)) throw new AppError("invalid_parameter", `invalid delivery id: must be a whole number (got ${JSON.stringify(text)})`, "<delivery>");
  return Number(text);
}

export function registerWebhookCommands(program: Command): void {
  const webhooks = program.command("webhooks").description("Manage webhook endpoints and read the delivery log (webhooks and invitation emails).");
  const eventsHelp = `comma-separated event types (${EVENT_TYPES.join(", ")}); default every type`;

  webhooks
    .command("add")
    .description("Add a webhook endpoint and print its signing secret. The secret is shown only this once (and on rotate-secret). Audited (actor cli).")
    .requiredOption("--url <url>", "where to POST events: an https URL (http too with WEBHOOK_ALLOW_HTTP=1)")
    .option("--waitlist <id>", "only this waitlist's events (default: every waitlist)")
    .option("--events <types>", eventsHelp)
    .option("--json", "print one JSON object to stdout")
    .action(async (options: { url: string; waitlist?: string; events?: string } & JsonOption) => {
      const input = parseOptions(addEndpointSchema, { url: options.url, waitlist: options.waitlist, events: listOrAll(options.events) ?? undefined });
      const created = await addEndpoint(CLI_ACTOR, input);
      emit(options, { ...endpointJson(created), secret: created.secret }, () =>
        [`Added webhook endpoint ${created.id}: ${created.url} (${scope(created)}).`, "Copy its signing secret now; it cannot be shown again:", "", `  ${created.secret}`].join("\n"),
      );
    });

  webhooks
    .command("list")
    .description("List webhook endpoints (never their secrets), with why one is disabled.")
    .option("--json", "print one JSON object to stdout")
    .action(async (options: JsonOption) => {
      const endpoints = await listEndpoints();
      emit(options, { endpoints: endpoints.map(endpointJson) }, () =>
        endpoints.length === 0
          ? "No webhook endpoints yet. Add one with: webhooks add --url <url>"
          : table(
              ["ID", "URL", "WAITLIST", "EVENTS", "STATUS"],
              endpoints.map((endpoint) => [
                endpoint.id,
                endpoint.url,
                endpoint.waitlistId ?? "all",
                endpoint.eventTypes?.join(",") ?? "all",
                endpoint.enabled ? (endpoint.failingSince ? `failing since ${endpoint.failingSince.toISOString()}` : "enabled") : `disabled: ${endpoint.disabledReason ?? ""}`,
              ]),
            ),
      );
    });

  webhooks
    .command("update")
    .description("Change an endpoint's URL, waitlist or event types, or enable it again. Audited (actor cli).")
    .argument("<id>", "the endpoint's id")
    .option("--url <url>", "its new URL")
    .option("--waitlist <id>", "only this waitlist's events, or `all`")
    .option("--events <types>", `${eventsHelp}, or \`all\``)
    .option("--enable", "enable it (clears its failure record)")
    .option("--disable", "disable it (its waiting deliveries are marked failed)")
    .option("--json", "print one JSON object to stdout")
    .action(async (id: string, options: { url?: string; waitlist?: string; events?: string; enable?: boolean; disable?: boolean } & JsonOption) => {
      if (options.enable && options.disable) throw new AppError("invalid_parameter", "--enable and --disable cannot be combined", "--enable");
      const waitlist = options.waitlist === undefined ? undefined : options.waitlist.trim() === "all" ? null : options.waitlist;
      const enabled = options.enable ? true : options.disable ? false : undefined;
      const input = parseOptions(updateEndpointSchema, { url: options.url, waitlist, events: listOrAll(options.events), enabled });
      const endpoint = await updateEndpoint(CLI_ACTOR, id, input);
      emit(options, endpointJson(endpoint), () => `Updated webhook endpoint ${endpoint.id}: ${endpoint.url} (${scope(endpoint)}), ${endpoint.enabled ? "enabled" : "disabled"}.`);
    });

  webhooks
    .command("disable")
    .description("Disable an endpoint: nothing more is sent to it and its waiting deliveries are marked failed (update --enable turns it back on). Audited (actor cli).")
    .argument("<id>", "the endpoint's id")
    .option("--json", "print one JSON object to stdout")
    .action(async (id: string, options: JsonOption) => {
      const endpoint = await disableEndpoint(CLI_ACTOR, id);
      emit(options, endpointJson(endpoint), () => `Disabled webhook endpoint ${endpoint.id} (${endpoint.url}).`);
    });

  webhooks
    .command("remove")
    .description("Remove an endpoint and its deliveries. Audited (actor cli).")
    .argument("<id>", "the endpoint's id")
    .option("--json", "print one JSON object to stdout")
    .action(async (id: string, options: JsonOption) => {
      const endpoint = await removeEndpoint(CLI_ACTOR, id);
      emit(options, { ...endpointJson(endpoint), removed: true }, () => `Removed webhook endpoint ${endpoint.id} (${endpoint.url}).`);
    });

  webhooks
    .command("rotate-secret")
    .description("Give an endpoint a new signing secret and print it (this once). Deliveries from now on are signed with it. Audited (actor cli).")
    .argument("<id>", "the endpoint's id")
    .option("--json", "print one JSON object to stdout")
    .action(async (id: string, options: JsonOption) => {
      const endpoint = await rotateEndpointSecret(CLI_ACTOR, id);
      emit(options, { ...endpointJson(endpoint), secret: endpoint.secret }, () =>
        [`New signing secret of webhook endpoint ${endpoint.id} (${endpoint.url}). Copy it now; it cannot be shown again:`, "", `  ${endpoint.secret}`].join("\n"),
      );
    });

  webhooks
    .command("send-test")
    .description("POST a signed `webhook.test` event to an endpoint now and print its answer (nothing is recorded). Fails when the answer is not a 2xx.")
    .argument("<id>", "the endpoint's id")
    .option("--json", "print one JSON object to stdout")
    .action(async (id: string, options: JsonOption) => {
      const endpoint = await getEndpointOrThrow(id);
      const { messageId, outcome } = await sendTestEvent(endpoint);
      if (outcome.kind !== "sent") throw new AppError("unprocessable", `the test event was not delivered to ${endpoint.url}: ${outcome.error}`);
      emit(options, { id: endpoint.id, url: endpoint.url, webhook_id: messageId, delivered: true, response: outcome.response }, () => `Delivered a test event (${messageId}) to ${endpoint.url}: HTTP ${outcome.response}.`);
    });

  webhooks
    .command("deliveries")
    .description("The delivery log, newest first: each webhook and invitation email with its state, attempts, last answer and next retry.")
    .option("--failed", "only failed deliveries (as --state failed)")
    .option("--state <state>", "only this state (pending, delivering, succeeded, failed, not_sent)")
    .option("--type <type>", `only this event type (${EVENT_TYPES.join(", ")})`)
    .option("--waitlist <id>", "only this waitlist's")
    .option("--endpoint <id>", "only this endpoint's")
    .option("--limit <n>", "the most rows to show (at most 1000)", "50")
    .option("--before <id>", "only deliveries older than this id (the next page: the last id shown)")
    .option("--json", "print one JSON object to stdout")
    .action(async (options: { failed?: boolean; state?: string; type?: string; waitlist?: string; endpoint?: string; limit: string; before?: string } & JsonOption) => {
      if (options.failed && options.state !== undefined && options.state !== "failed") throw new AppError("invalid_parameter", "--failed and --state cannot be combined", "--failed");
      const query = parseOptions(deliveryQuerySchema, { ...options, state: options.failed ? "failed" : options.state, failed: undefined, json: undefined });
      const rows = (await listDeliveries(query)).map(deliveryJson);
      emit(options, { deliveries: rows }, () =>
        rows.length === 0
          ? "No deliveries match."
          : table(
              ["ID", "EVENT", "TYPE", "TO", "STATE", "ATTEMPTS", "LAST ANSWER", "NEXT ATTEMPT"],
              rows.map((row) => [
                String(row.id),
                row.event_id === null ? "-" : String(row.event_id),
                row.type,
                row.target,
                row.state,
                String(row.attempts),
                [row.last_response, row.last_error].filter(Boolean).join(" ").slice(0, 80) || "-",
                row.next_attempt_at ?? "-",
              ]),
            ),
      );
    });

  webhooks
    .command("resend")
    .description("Send a delivery again (any state but delivering) with a fresh retry schedule. Audited (actor cli).")
    .argument("<delivery>", "the delivery's id (webhooks deliveries shows it)")
    .option("--json", "print one JSON object to stdout")
    .action(async (id: string, options: JsonOption) => {
      const delivery = await resendDelivery(CLI_ACTOR, parseDeliveryId(id));
      emit(options, deliveryJson(delivery), () => `Delivery ${delivery.id} (${delivery.eventType} to ${delivery.target}) will be sent again as soon as the server's sender runs.`);
    });
}
