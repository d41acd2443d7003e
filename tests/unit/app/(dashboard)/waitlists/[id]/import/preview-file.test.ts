import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { previewFile } from "@/app/(dashboard)/waitlists/[id]/import/preview-file";
import { csvLayout, IMPORT_FIELDS } from "@/lib/domain/signups/import-columns";

describe("the template CSV (public/signups-template.csv)", () => {
  it("has every column the import reads, plus custom inputs, and the import's own header check accepts it", () => {
    const text = readFileSync("public/signups-template.csv", "utf8");
    const header = text.split("\n")[0]!.split(",");
    for (const field of IMPORT_FIELDS) expect(header).toContain(field);
    const layout = csvLayout(header);
    expect("error" in layout).toBe(false);
    expect((layout as { extras: { label: string }[] }).extras.map((extra) => extra.label)).toEqual(["company", "role"]);
  });
});

describe("previewFile", () => {
  it("maps each CSV column to a signup field or a custom input, and shows the first rows", () => {
    const preview = previewFile("people.csv", 'Email;Company;created_at\r\nada@example.com;"Acme; Inc";2026-11-01\r\n"grace@example.com";"say ""hi""";\r\n', true, ";");
    expect(preview.columns).toEqual([
      { name: "Email", becomes: "email" },
      { name: "Company", becomes: "custom input “Company”" },
      { name: "created_at", becomes: "created_at" },
    ]);
    expect(preview.rows).toEqual([
      ["ada@example.com", "Acme; Inc", "2026-11-01"],
      ["grace@example.com", 'say "hi"', ""],
    ]);
    expect(preview.problem).toBeUndefined();
  });

  it("reads at most five rows, drops a row cut by the end of the bytes read, and says when the import would refuse the header", () => {
    const lines = ["name,company", ...Array.from({ length: 9 }, (_, index) => `person${index},Acme`)];
    expect(previewFile("a.csv", lines.join("\n"), false).rows).toHaveLength(5);
    expect(previewFile("a.csv", lines.slice(0, 3).join("\n") + "\nperso", false).rows).toEqual([
      ["person0", "Acme"],
      ["person1", "Acme"],
    ]);
    expect(previewFile("a.csv", lines.join("\n"), true).problem).toBe(`The import would refuse this file: the header has no "email" column (expected ${IMPORT_FIELDS.join(",")}).`);
  });

  it("shows the keys of NDJSON objects, and which the import would refuse", () => {
    const preview = previewFile("a.ndjson", '{"email":"a@example.com","verified":true}\n{"email":"b@example.com","company":"Acme"}\n{"email":"c@exa', false);
    expect(preview.columns).toEqual([
      { name: "email", becomes: "email" },
      { name: "verified", becomes: "verified" },
      { name: "company", becomes: "refused: not a signup field" },
    ]);
    expect(preview.rows).toHaveLength(2);
    expect(preview.problem).toContain("company");
    expect(previewFile("a.json", "[{", false).problem).toMatch(/only when small/);
  });
});
