import { describe, expect, it, vi } from "vitest";
import { toProblem, toProblemResponse } from "@/lib/api/problem";
import { AppError, invalidParameter } from "@/lib/core/errors";

describe("the one error mapper", () => {
  it("maps an AppError to an RFC 9457 body with its code, status and parameter", () => {
    expect(toProblem(invalidParameter("limit", "bad limit"), "rid")).toEqual({
      type: "/docs/api#error-invalid_parameter",
      title: "Invalid parameter",
      status: 400,
      detail: "bad limit",
      code: "invalid_parameter",
      request_id: "rid",
      parameter: "limit",
    });
    expect(toProblem(new AppError("not_found", "gone"), "rid")).not.toHaveProperty("parameter");
  });

  it("turns any other error into a 500 without internals, and logs it with the request id", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const failure = new Error("SQLITE_CORRUPT: SELECT secret FROM api_keys");
    const response = toProblemResponse(failure, "rid-500");
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(response.headers.get("request-id")).toBe("rid-500");
    expect(JSON.parse(text)).toMatchObject({ code: "internal", status: 500, request_id: "rid-500" });
    expect(text).not.toMatch(/SQLITE|SELECT|api_keys|at /);
    expect(log).toHaveBeenCalledWith(expect.stringContaining("rid-500"), failure);
    log.mockRestore();
  });

  it("adds WWW-Authenticate to 401 and Allow to 405", () => {
    expect(toProblemResponse(new AppError("unauthenticated", "x"), "r").headers.get("www-authenticate")).toBe('Bearer realm="waitlist"');
    expect(toProblemResponse(new AppError("method_not_allowed", "x"), "r").headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });
});
