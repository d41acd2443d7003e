/**
 * The longest email address the app takes anywhere (the join page and API, the import, the filters,
 * the finder and erasure, the dashboard's fields): 254 characters, the most an address can have in
 * SMTP's forward path (RFC 5321 §4.5.3.1.3, with RFC 3696's erratum). No imports: client components
 * (the dashboard's search fields) use it as their maxLength.
 */
export const MAX_EMAIL_LENGTH = 254;
