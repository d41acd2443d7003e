import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { sniffImage } from "@/lib/domain/branding/image-type";

const image = (name: string) => new Uint8Array(readFileSync(`tests/support/images/${name}`));

describe("sniffImage", () => {
  it("reads the type and size of a PNG, a JPEG and a WebP (lossy and lossless) from their bytes", () => {
    expect(sniffImage(image("logo.png"))).toEqual({ type: "image/png", width: 240, height: 80 });
    expect(sniffImage(image("logo.jpg"))).toEqual({ type: "image/jpeg", width: 240, height: 80 });
    expect(sniffImage(image("logo.webp"))).toEqual({ type: "image/webp", width: 240, height: 80 });
    expect(sniffImage(image("logo-lossless.webp"))).toEqual({ type: "image/webp", width: 240, height: 80 });
  });

  it("goes by the bytes, not by what a file claims to be", () => {
    expect(sniffImage(new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toEqual({ problem: "unsupported" });
    expect(sniffImage(new TextEncoder().encode("GIF89a\x01\x00\x01\x00"))).toEqual({ problem: "unsupported" });
    expect(sniffImage(new TextEncoder().encode("<script>alert(1)</script>"))).toEqual({ problem: "unsupported" });
    expect(sniffImage(new Uint8Array())).toEqual({ problem: "unsupported" });
  });

  it("calls an image whose header is cut short or gives no size broken", () => {
    expect(sniffImage(image("logo.png").slice(0, 20))).toEqual({ problem: "broken" });
    expect(sniffImage(image("logo.jpg").slice(0, 12))).toEqual({ problem: "broken" });
    expect(sniffImage(image("logo.webp").slice(0, 24))).toEqual({ problem: "broken" });
    const zeroWidth = image("logo.png");
    zeroWidth.fill(0, 16, 20);
    expect(sniffImage(zeroWidth)).toEqual({ problem: "broken" });
    const riffOfSomethingElse = image("logo.webp");
    riffOfSomethingElse.set(new TextEncoder().encode("ABCD"), 12);
    expect(sniffImage(riffOfSomethingElse)).toEqual({ problem: "broken" });
  });
});
