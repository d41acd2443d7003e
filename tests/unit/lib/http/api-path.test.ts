import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { dispatchApi } from "@/lib/api/dispatch";
import { isPublicPath } from "@/lib/dashboard/session-cookie";
import { isApiPath } from "@/lib/http/api-path";
import { isPageFormPost } from "@/lib/server/form-body";
import { refuseUnhandledRequest } from "@/lib/server/refuse";

const API = ["/v1", "/v1/", "/v1/waitlist", "/v1/waitlist/x/signup", "/v1?limit=1", "/v1/openapi.json"];
const NOT_API = ["/", "/v1x", "/v10/waitlist", "/v", "/docs/api", "/waitlists/v1", "//v1", "/V1"];

function incoming(method: string, url: string, headers: Record<string, string> = {}): IncomingMessage {
  return Object.assign(new IncomingMessage(new Socket()), { method, url, headers });
}

describe("isApiPath", () => {
  it("is /v1 and what is under it, with or without a query, and nothing else", () => {
    for (const path of API) expect(isApiPath(path), path).toBe(true);
    for (const path of NOT_API) expect(isApiPath(path), path).toBe(false);
  });

  it("is the rule of the sign-in check, the form-post check and the refusals alike (the dispatcher's under /v1)", async () => {
    for (const path of [...API, ...NOT_API]) {
      const api = isApiPath(path);
      if (api && !path.includes("?")) expect(isPublicPath(path), path).toBe(true);
      expect(isPageFormPost(incoming("POST", path, { "content-type": "multipart/form-data; boundary=x" })), path).toBe(!api);
      if (api) {
        // The server hands every /v1 request to the dispatcher; TRACE cannot even be a WHATWG Request.
        const refused = await dispatchApi({ method: "TRACE", url: `http://localhost${path}`, headers: { get: () => null } });
        expect([refused.status, refused.headers.get("content-type")], path).toEqual(path === "/v1/" ? [308, "text/plain; charset=utf-8"] : [path === "/v1" || path === "/v1?limit=1" ? 404 : 405, "application/problem+json"]);
        continue;
      }
      const response = new ServerResponse(incoming("TRACE", path));
      expect(refuseUnhandledRequest(incoming("TRACE", path), response), path).toBe(true);
      expect(String(response.getHeader("content-type")), path).toBe("text/plain; charset=utf-8");
    }
  });
});
