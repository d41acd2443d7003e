-- Invite links (lib/domain/invitations): each waitlist's product sign-up URL, which an invitation
-- email's {{invite.url}} carries with a signed token, and how many days a token stays good. The
-- tokens themselves are stored nowhere: signed, bound to the time of the invitation.
ALTER TABLE `invitation_emails` ADD `invite_url` text;
--> statement-breakpoint
ALTER TABLE `invitation_emails` ADD `invite_expiry_days` integer DEFAULT 14 NOT NULL;
