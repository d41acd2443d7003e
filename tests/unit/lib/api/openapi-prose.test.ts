import { describe, expect, it } from "vitest";
import type { OperationObject } from "@/lib/api/openapi-types";
import { openApiDocument } from "@/lib/api/route-table";
import { ENV_DEFAULTS } from "@/lib/core/env";
import { ROLES } from "@/lib/domain/keys/queries";
import { actionNeedsLimit, MAX_PAGE_LIMIT } from "@/lib/domain/list-params";
import { FILTER_KEYS, SIGNUP_FILTERS } from "@/lib/domain/signups/filter";
import { MAX_ACTION_LIMIT, SIGNUP_STATUSES, STATUS_ACTION_NAMES, STATUS_ACTIONS } from "@/lib/domain/signups/status";

// The document's sentences that restate a definition say what that definition holds today: the
// status table, the filter list, the roles and the environment's defaults.

const description = openApiDocument.info.description;
const operation = (path: string, method: "get" | "post") => (openApiDocument.paths[path] as Record<string, OperationObject>)[method]!;
const errorText = (op: OperationObject, status: string) => (op.responses[status] as { description: string }).description;

describe("the OpenAPI document's prose, from the definitions it restates", () => {
  it("names every status, and every action with the states of the status table", () => {
    for (const status of SIGNUP_STATUSES) expect(description).toContain(`\`${status}\``);
    for (const action of STATUS_ACTION_NAMES) expect(description).toContain(`${action} (${STATUS_ACTIONS[action].from} → ${STATUS_ACTIONS[action].to})`);
    expect(openApiDocument.components.schemas.StatusActionResult!.description).toContain(STATUS_ACTION_NAMES.join(", "));
  });

  it("gives each status action's summary, limit and event from its row", () => {
    for (const action of STATUS_ACTION_NAMES) {
      const { from, to, event } = STATUS_ACTIONS[action];
      const op = operation(`/waitlist/{id}/signup/${action}`, "post");
      expect(op.summary).toContain(`(${from} → ${to})`);
      expect(op.description).toContain(`\`${event}\``);
      const limit = op.parameters!.find((parameter) => "name" in parameter && parameter.name === "limit") as { description: string };
      expect(limit.description.includes("Required"), action).toBe(actionNeedsLimit(action));
      expect(errorText(op, "400")).toContain(`1–${MAX_ACTION_LIMIT}`);
    }
  });

  it("lists every signup filter, and what makes each one a 400", () => {
    const listSignups = operation("/waitlist/{id}/signup", "get");
    for (const key of FILTER_KEYS) {
      const { name, openapi } = SIGNUP_FILTERS[key];
      expect(listSignups.description).toContain(`\`${name}\``);
      expect(errorText(listSignups, "400")).toContain(`\`${name}\` ${openapi.invalid}`);
    }
    expect(errorText(listSignups, "400")).toContain(`1–${MAX_PAGE_LIMIT}`);
  });

  it("names every role", () => {
    for (const role of ROLES) expect(description).toContain(`\`${role}\``);
  });

  it("quotes the rate limits' defaults of env.ts", () => {
    expect(description).toContain(`\`RATE_LIMIT_PER_MINUTE\` requests (${ENV_DEFAULTS.RATE_LIMIT_PER_MINUTE} by default)`);
    expect(description).toContain(`\`AUTH_FAILURES_PER_MINUTE\` times (${ENV_DEFAULTS.AUTH_FAILURES_PER_MINUTE} by default)`);
    expect(description).toContain(`"per-key";q=${ENV_DEFAULTS.RATE_LIMIT_PER_MINUTE};w=60`);
    expect(operation("/waitlist/{id}/events", "get").description).toContain(`kept ${ENV_DEFAULTS.DELIVERY_RETENTION.replace("d", " days")} by default`);
  });
});
