import "server-only";
import { z } from "zod";
import { milestonesSchema } from "@/lib/domain/milestones/milestone";

// The dashboard's milestones form: one textarea, a milestone per line as the CLI writes it
// (`waitlists milestones <id> --set …`), blank lines ignored; checked by the one schema, and handed
// on as lines (setMilestones reads them as the CLI's).
export const milestonesFormSchema = z
  .object({ milestones: z.string().max(10_000, "is longer than 10,000 characters") })
  .transform(({ milestones }) => milestones.split(/\r?\n/).filter((line) => line.trim() !== ""))
  .superRefine((lines, context) => {
    const parsed = milestonesSchema.safeParse(lines);
    if (!parsed.success) context.addIssue({ code: "custom", path: ["milestones"], message: parsed.error.issues[0]!.message });
  });
