import { describe, expect, it } from "vitest";
import { descriptionText, parseDescription, safeLinkTarget } from "@/lib/domain/branding/markdown";

describe("parseDescription", () => {
  it("splits paragraphs at blank lines and keeps single line breaks", () => {
    expect(parseDescription("First line\nsecond line\n\n  \nNext paragraph")).toEqual([[{ text: "First line" }, { lineBreak: true }, { text: "second line" }], [{ text: "Next paragraph" }]]);
    expect(parseDescription("   \n\n ")).toEqual([]);
  });

  it("reads bold, italic (both markers), nested, and http(s) links", () => {
    expect(parseDescription("**Fast** and *small*, _really_")).toEqual([[{ strong: [{ text: "Fast" }] }, { text: " and " }, { em: [{ text: "small" }] }, { text: ", " }, { em: [{ text: "really" }] }]]);
    expect(parseDescription("**very *much* so**")).toEqual([[{ strong: [{ text: "very " }, { em: [{ text: "much" }] }, { text: " so" }] }]]);
    expect(parseDescription("See [our **site**](https://acme.example/about?x=1).")).toEqual([
      [{ text: "See " }, { link: "https://acme.example/about?x=1", children: [{ text: "our " }, { strong: [{ text: "site" }] }] }, { text: "." }],
    ]);
  });

  it("keeps an unclosed marker, an escaped marker and a link to any other scheme as text", () => {
    expect(parseDescription("2 * 3 = 6")).toEqual([[{ text: "2 * 3 = 6" }]]);
    expect(parseDescription("\\*not italic\\*")).toEqual([[{ text: "*not italic*" }]]);
    expect(parseDescription("[click](javascript:alert(1))")).toEqual([[{ text: "[click](javascript:alert(1))" }]]);
    expect(parseDescription("[x](data:text/html,<script>alert(1)</script>)")).toEqual([[{ text: "[x](data:text/html,<script>alert(1)</script>)" }]]);
  });

  it("keeps HTML as text: a script or an img with onerror is never an element", () => {
    const attempt = '<script>alert("x")</script><img src=x onerror=alert(1)> <a href="javascript:alert(1)">hi</a>';
    expect(parseDescription(attempt)).toEqual([[{ text: attempt }]]);
  });

  it("makes no link inside a link's label", () => {
    expect(parseDescription("[a [b](https://b.example)](https://a.example)")).toEqual([[{ text: "[a " }, { link: "https://b.example/", children: [{ text: "b" }] }, { text: "](https://a.example)" }]]);
  });
});

describe("safeLinkTarget", () => {
  it("allows http and https only", () => {
    expect(safeLinkTarget("https://acme.example")).toBe("https://acme.example/");
    expect(safeLinkTarget("http://acme.example/x")).toBe("http://acme.example/x");
    for (const target of ["javascript:alert(1)", "JAVASCRIPT:alert(1)", "data:text/html,x", "vbscript:x", "mailto:a@b.example", "/relative", "//acme.example"]) expect(safeLinkTarget(target)).toBeUndefined();
  });
});

describe("descriptionText", () => {
  it("drops the markers and the link targets", () => {
    expect(descriptionText("**Fast** beta.\n\nSee [our site](https://acme.example).")).toBe("Fast beta. See our site.");
  });
});
