import { invalidParameter } from "@/lib/core/errors";
import { firstIssueOf } from "@/lib/core/zod-issue";
import { toScheduleResponse } from "@/lib/domain/invitations/schedules/response";
import { previewSchedule } from "@/lib/domain/invitations/schedules/run";
import { addSchedule, changeSchedule, getScheduleOrThrow, listSchedules, removeSchedule, scheduleChangeSchema } from "@/lib/domain/invitations/schedules/store";
import { noParamsSchema, parseApiQuery } from "@/lib/domain/list-params";
import { getWaitlistOrThrow } from "@/lib/domain/waitlists/queries";
import { parseWaitlistId } from "@/lib/domain/waitlists/id";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";
import { CACHE_CONTROL } from "./headers";
import { jsonTextResponse } from "./responses";
import type { ApiHandler } from "./with-api-key";

// The paced invitations of /v1 (lib/domain/invitations/schedules), for waitlist:admin: each listed in the route table.

const MAX_SCHEDULE_BODY_BYTES = 4 * 1024;
const headers = { "Cache-Control": CACHE_CONTROL.never };

/** A schedule's id in the path: a positive integer, else a 400 naming `schedule_id`. */
function scheduleIdOf(text: string): number {
  if (!/^[1-9][0-9]{0,9}$/.test(text)) throw invalidParameter("schedule_id", "The schedule id must be a positive integer, as the list of schedules shows it.");
  return Number(text);
}

/** The body of a POST (`{"rule": …}`) or a PATCH (`{"rule"?, "paused"?}`), strictly read. */
async function bodyOf(request: Parameters<ApiHandler<object>>[0]["request"], required: boolean) {
  const text = request.text ? await request.text() : "";
  if (Buffer.byteLength(text) > MAX_SCHEDULE_BODY_BYTES) throw invalidParameter("body", `The body is larger than ${MAX_SCHEDULE_BODY_BYTES / 1024} KB.`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw invalidParameter("body", 'The body must be a JSON object: {"rule": "weekdays at 09:00 Europe/Berlin invite 200 where verified=true"}.');
  }
  const parsed = (required ? scheduleChangeSchema.required({ rule: true }).omit({ paused: true }) : scheduleChangeSchema).safeParse(json);
  if (!parsed.success) {
    const issue = firstIssueOf(parsed.error);
    const name = issue.unknownKey ?? issue.key ?? "body";
    throw invalidParameter(name, `The body's "${name}" ${issue.message}.`);
  }
  return json as { rule?: string; paused?: boolean };
}

// GET /v1/waitlist/{id}/schedules – a waitlist's paced invitations, each with its next and last run
export const listSchedulesRoute: ApiHandler<{ id: string }> = async ({ query, params }) => {
  parseApiQuery(query, noParamsSchema);
  const waitlist = await getWaitlistOrThrow(parseWaitlistId(params.id));
  const now = Date.now();
  const items = await Promise.all((await listSchedules(waitlist.id)).map((schedule) => toScheduleResponse(schedule, now)));
  return jsonTextResponse(JSON.stringify({ items }), headers);
};

// POST /v1/waitlist/{id}/schedules – add a paced invitation
export const addScheduleRoute: ApiHandler<{ id: string }> = async ({ request, query, params, key }) => {
  parseApiQuery(query, noParamsSchema);
  const waitlistId = parseWaitlistId(params.id);
  const { rule } = await bodyOf(request, true);
  const schedule = await writeWithoutBlocking(async () => await addSchedule({ keyId: key!.id, keyName: key!.name }, waitlistId, { rule: rule! }));
  return jsonTextResponse(JSON.stringify(await toScheduleResponse(schedule)), headers, 201);
};

// GET /v1/waitlist/{id}/schedules/{schedule_id}/preview – who the schedule's next run would invite, were it now
export const previewScheduleRoute: ApiHandler<{ id: string; schedule_id: string }> = async ({ query, params }) => {
  parseApiQuery(query, noParamsSchema);
  const schedule = await getScheduleOrThrow(parseWaitlistId(params.id), scheduleIdOf(params.schedule_id));
  const preview = await previewSchedule(schedule, Date.now());
  return jsonTextResponse(JSON.stringify({ next_run_at: preview.nextRunAt, count: preview.count, first: preview.first }), { "Cache-Control": CACHE_CONTROL.personalData });
};

// PATCH /v1/waitlist/{id}/schedules/{schedule_id} – change a schedule's rule, pause or resume it
export const changeScheduleRoute: ApiHandler<{ id: string; schedule_id: string }> = async ({ request, query, params, key }) => {
  parseApiQuery(query, noParamsSchema);
  const waitlistId = parseWaitlistId(params.id);
  const scheduleId = scheduleIdOf(params.schedule_id);
  const change = await bodyOf(request, false);
  const schedule = await writeWithoutBlocking(async () => await changeSchedule({ keyId: key!.id, keyName: key!.name }, waitlistId, scheduleId, change));
  return jsonTextResponse(JSON.stringify(await toScheduleResponse(schedule)), headers);
};

// DELETE /v1/waitlist/{id}/schedules/{schedule_id} – remove a schedule (its runs go with it)
export const removeScheduleRoute: ApiHandler<{ id: string; schedule_id: string }> = async ({ query, params, key }) => {
  parseApiQuery(query, noParamsSchema);
  const waitlistId = parseWaitlistId(params.id);
  const scheduleId = scheduleIdOf(params.schedule_id);
  const schedule = await writeWithoutBlocking(async () => await removeSchedule({ keyId: key!.id, keyName: key!.name }, waitlistId, scheduleId));
  return jsonTextResponse(JSON.stringify(await toScheduleResponse(schedule)), headers);
};
