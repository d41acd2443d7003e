import { mutedText } from "@/components/styles";
import type { DisposablePolicy } from "@/lib/domain/joining/settings";

const CHOICES: [DisposablePolicy, string][] = [
  ["flag", "Flag for review: accept the signup, hold its referral until you approve it (the default)"],
  ["refuse", "Refuse: the page and the API turn the address away, nothing is stored"],
  ["allow", "Allow: treat it like any other address"],
];

/** The Joining form's choice of what a disposable address does (`waitlists update --disposable`). */
export function DisposableSetting({ value }: { value: DisposablePolicy }) {
  return (
    <fieldset className="grid gap-1" aria-describedby="disposable-hint">
      <legend className="text-sm font-medium">Disposable email addresses</legend>
      {CHOICES.map(([choice, label]) => (
        <label key={choice} className="flex items-center gap-2 text-sm">
          <input type="radio" name="disposable" value={choice} defaultChecked={value === choice} />
          {label}
        </label>
      ))}
      <p id="disposable-hint" className={`text-sm ${mutedText}`}>
        Addresses at throwaway inbox services (mailinator.com and thousands more, from a maintained list), subdomains included.
      </p>
    </fieldset>
  );
}
