import { linkClass, mutedText } from "@/components/styles";
import { JoinCard } from "../../join-card";

/** Why a person's link opens nothing, in words. */
const PROBLEMS = {
  gone: { title: "Not on this list", text: "This link's signup is no longer on the waitlist." },
  expired: { title: "This link has expired", text: "Links to your page work for 30 days. Ask for a new one: we'll email it to you." },
  invalid: { title: "This link does not work", text: "It may have been cut short by your email program: copy the whole link from the email, or ask for a new one." },
} as const;

export function LinkProblem({ problem, waitlistId, waitlistName }: { problem: keyof typeof PROBLEMS; waitlistId: string; waitlistName: string }) {
  const shown = PROBLEMS[problem];
  return (
    <JoinCard title={shown.title}>
      <p className={`mt-2 text-sm ${mutedText}`}>{waitlistName} waitlist</p>
      <p role="status" data-testid="person-problem" className="mt-4">
        {shown.text}
      </p>
      <p className="mt-6 text-sm">
        <a href={problem === "gone" ? `/join/${waitlistId}` : `/join/${waitlistId}?link=ask#get-link`} className={linkClass}>
          {problem === "gone" ? "Go to the join page" : "Get a new link"}
        </a>
      </p>
    </JoinCard>
  );
}
