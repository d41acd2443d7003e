import { describe, expect, it } from "vitest";
import { bodyLimitOf, DASHBOARD_FORM_MAX_BYTES, PUBLIC_FORM_MAX_BYTES, readBoundedForm } from "@/lib/http/body-limit";

describe("bodyLimitOf", () => {
  it("bounds the join pages to 32 KB and the dashboard to 1 MB; /v1 and the import upload have their own", () => {
    expect(PUBLIC_FORM_MAX_BYTES).toBe(32 * 1024);
    for (const path of ["/join/abc/submit", "/join/abc/confirm/submit", "/join/abc/resend", "/join/abc?x=1", "/join"]) expect(bodyLimitOf(path), path).toBe(PUBLIC_FORM_MAX_BYTES);
    for (const path of ["/waitlists/create", "/keys", "/signin", "/joined", "/waitlists/abc/import/upload/x"]) expect(bodyLimitOf(path), path).toBe(DASHBOARD_FORM_MAX_BYTES);
    for (const path of ["/v1/waitlist/abc/signup", "/v1", "/waitlists/abc/import/upload", "/waitlists/abc/import/upload?name=a.csv"]) expect(bodyLimitOf(path), path).toBeUndefined();
  });
});

/** A urlencoded POST whose body streams `size` bytes, without a Content-Length; `pulled()` is what the reader took. */
function streamed(size: number) {
  let pulled = 0;
  const chunk = new TextEncoder().encode("a".repeat(16 * 1024));
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= size) return controller.close();
      pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  const request = new Request("http://localhost/join/x/submit", { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" }, duplex: "half" } as RequestInit);
  return { request, pulled: () => pulled };
}

describe("readBoundedForm (the route handlers' check, for next dev)", () => {
  it("reads a form within the bound", async () => {
    const form = await readBoundedForm(new Request("http://localhost/", { method: "POST", body: new URLSearchParams({ email: "a@example.com" }) }), 1024);
    expect(form instanceof FormData && form.get("email")).toBe("a@example.com");
  });

  it("refuses a larger Content-Length before reading, and a streamed body once it passes the bound, reading little more", async () => {
    const declared = new Request("http://localhost/", { method: "POST", body: "a=1", headers: { "content-length": String(150 * 1024 * 1024), "content-type": "application/x-www-form-urlencoded" } });
    expect(await readBoundedForm(declared, PUBLIC_FORM_MAX_BYTES)).toBe("too_large");
    const huge = streamed(150 * 1024 * 1024);
    expect(await readBoundedForm(huge.request, PUBLIC_FORM_MAX_BYTES)).toBe("too_large");
    expect(huge.pulled()).toBeLessThan(PUBLIC_FORM_MAX_BYTES + 64 * 1024);
  });

  it("says when the body is not a form", async () => {
    expect(await readBoundedForm(new Request("http://localhost/", { method: "POST", body: "x", headers: { "content-type": "multipart/form-data; boundary=z" } }), 1024)).toBe("invalid");
  });
});
