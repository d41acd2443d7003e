import { inputClass, mutedText } from "@/components/styles";
import { MAX_BODY, MAX_INVITE_EXPIRY_DAYS, MAX_SUBJECT, type InvitationEmailSettings } from "@/lib/domain/emails/invitation";

/** The invitation email's expiry and reminder settings (`waitlists update --on-invite-expiry --remind-days`, `emails set --reminder-*`). */
export function ExpiryFields({ saved }: { saved: InvitationEmailSettings }) {
  return (
    <fieldset className="grid gap-3 rounded-md border border-zinc-300 p-3 dark:border-zinc-700">
      <legend className="px-1 text-sm font-medium">Expiry and reminder</legend>
      <p id="expiry-hint" className={`text-xs ${mutedText}`}>
        An invitation not redeemed within the days above expires: the scheduler (every 15 seconds) moves the signup on and records <code>signup.invitation_expired</code>. An optional reminder email goes out once per invitation, the given number of days before it expires, with the same placeholders (only while invitation emails are on: the webhooks get <code>signup.invitation_reminder</code> either way).
      </p>
      <div>
        <label htmlFor="on-invite-expiry" className="text-sm font-medium">
          When an invitation expires
        </label>
        <select id="on-invite-expiry" name="on_invite_expiry" defaultValue={saved.onInviteExpiry} aria-describedby="expiry-hint" className={`${inputClass} mt-1 block`}>
          <option value="requeue">Back to waiting, at the front of the line</option>
          <option value="reject">Reject the signup</option>
        </select>
      </div>
      <div>
        <label htmlFor="remind-days" className="text-sm font-medium">
          Reminder, days before expiry
        </label>
        <p id="remind-days-hint" className={`text-xs ${mutedText}`}>
          Empty: no reminder.
        </p>
        <input id="remind-days" name="remind_days" type="number" min={1} max={MAX_INVITE_EXPIRY_DAYS - 1} step={1} defaultValue={saved.reminderDaysBefore ?? ""} aria-describedby="remind-days-hint" className={`${inputClass} mt-1 w-28`} />
      </div>
      <div>
        <label htmlFor="reminder-subject" className="text-sm font-medium">
          Reminder subject
        </label>
        <input id="reminder-subject" name="reminder_subject" required maxLength={MAX_SUBJECT} defaultValue={saved.reminderSubject} aria-describedby="placeholders-hint" autoComplete="off" className={`${inputClass} mt-1 w-full`} />
      </div>
      <div>
        <label htmlFor="reminder-body" className="text-sm font-medium">
          Reminder body (plain text)
        </label>
        <textarea id="reminder-body" name="reminder_body" required rows={5} maxLength={MAX_BODY} defaultValue={saved.reminderBody} aria-describedby="placeholders-hint" className={`${inputClass} mt-1 w-full font-mono`} />
      </div>
    </fieldset>
  );
}
