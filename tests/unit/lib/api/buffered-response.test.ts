import { describe, expect, it } from "vitest";
import { BufferedResponse } from "@/lib/api/buffered-response";

// The production server writes bufferedText; everyone else must see an ordinary Response.
describe("BufferedResponse", () => {
  const make = () => new BufferedResponse('{"a":"é"}', { status: 201, headers: { "Content-Type": "application/json" } });

  it("keeps status and headers, and hands the text to the production server without a stream", () => {
    const response = make();
    expect(response).toBeInstanceOf(Response);
    expect([response.status, response.headers.get("content-type"), response.bufferedText]).toEqual([201, "application/json", '{"a":"é"}']);
    expect(response.bodyUsed).toBe(false);
  });

  it("reads like a Response: as a stream, as text, as JSON, as bytes, once", async () => {
    const streamed = make();
    const reader = streamed.body!.getReader();
    const chunks: Uint8Array[] = [];
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
    reader.releaseLock();
    expect(Buffer.concat(chunks).toString("utf8")).toBe('{"a":"é"}');
    expect(streamed.bodyUsed).toBe(true);
    await expect(streamed.text()).rejects.toThrow();

    expect(await make().text()).toBe('{"a":"é"}');
    expect(await make().json()).toEqual({ a: "é" });
    expect(Buffer.from(await make().arrayBuffer()).toString("utf8")).toBe('{"a":"é"}');
    expect(Buffer.from(await make().bytes()).toString("utf8")).toBe('{"a":"é"}');
    expect(await (await make().blob()).text()).toBe('{"a":"é"}');
  });

  it("keeps edits made through editableHeaders, before and after headers was read", () => {
    const response = make();
    response.editableHeaders.set("ETag", 'W/"1"');
    response.editableHeaders.append("Vary", "Origin");
    response.editableHeaders.append("vary", "Accept-Encoding");
    expect(response.editableHeaders.has("etag")).toBe(true);
    expect(Object.fromEntries(response.headers)).toEqual({ "content-type": "application/json", etag: 'W/"1"', vary: "Origin, Accept-Encoding" });
    response.editableHeaders.set("Cache-Control", "no-store");
    expect(response.editableHeaders).toBe(response.headers);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(new Response(null, response).headers.get("etag")).toBe('W/"1"');
  });

  it("clones with its body, status and headers", async () => {
    const clone = make().clone();
    expect([clone.status, clone.headers.get("content-type"), await clone.text()]).toEqual([201, "application/json", '{"a":"é"}']);
  });

  it("is piped by another Response, as Next.js does with a route handler's result", async () => {
    const original = make();
    const wrapped = new Response(original.body, original);
    expect([wrapped.status, await wrapped.text()]).toEqual([201, '{"a":"é"}']);
  });
});
