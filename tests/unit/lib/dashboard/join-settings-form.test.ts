import { describe, expect, it } from "vitest";
import { embedSnippet, joinSettingsFromForm } from "@/lib/dashboard/join-settings-form";

describe("the Joining form", () => {
  it("reads rows of fields (a row without a label dropped), the flags, the message, one origin per line and the brand", () => {
    expect(
      joinSettingsFromForm({
        joining: "open",
        verification: "true",
        success_message: "Thanks!\r\nSee you.",
        embed_origins: " https://a.example \r\n\r\nhttps://b.example\n",
        field_label_0: " Company ",
        field_type_0: "text",
        field_options_0: "ignored",
        field_required_0: "true",
        field_label_1: "",
        field_type_1: "text",
        field_label_2: "Plan",
        field_type_2: "choice",
        field_options_2: "Free, Pro ,,",
        headline: "Acme is coming",
        description: "**Fast**\r\n\r\nbeta",
        accent_color: "#0f766e",
        leaderboard: "true",
      }),
    ).toEqual({
      joining: "open",
      verification: true,
      challenge: false,
      successMessage: "Thanks!\nSee you.",
      embedOrigins: ["https://a.example", "https://b.example"],
      fields: [
        { label: "Company", type: "text", required: true },
        { label: "Plan", type: "choice", options: ["Free", "Pro"], required: false },
      ],
      headline: "Acme is coming",
      description: "**Fast**\n\nbeta",
      accentColor: "#0f766e",
      leaderboard: true,
    });
    expect(joinSettingsFromForm({})).toEqual({ joining: "closed", verification: false, challenge: false, successMessage: "", embedOrigins: [], fields: [], headline: "", description: "", accentColor: "", leaderboard: false });
  });

  it("makes an iframe snippet whose title cannot break out of its attribute", () => {
    expect(embedSnippet("https://w.example", { id: "abc", name: 'A "quoted" <list>' }, { fields: [] })).toBe(
      '<iframe src="https://w.example/join/abc" title="Join the A &#34;quoted&#34; &#60;list&#62; waitlist" style="width: 100%; max-width: 480px; height: 420px; border: 0" loading="lazy"></iframe>',
    );
  });
});
