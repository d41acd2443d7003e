-- Websites in the one stored serialization (lib/core/website.ts: WHATWG URL, plus RFC 3986
-- escapes), as waitlists are now written. normalize_website() is that function, registered on the
-- connection by db/migrate.ts; a value that is not a URL at all is left as it is.
UPDATE `waitlists` SET `website` = normalize_website(`website`) WHERE `website` <> normalize_website(`website`);
