/** The documentation pages, in reading order: the navigation at the top of every guide page. */
export const DOCS_PAGES = [
  ["/docs", "Overview"],
  ["/docs/launch", "Launch your first waitlist"],
  ["/docs/configuration", "Configuration"],
  ["/docs/dashboard", "Dashboard"],
  ["/docs/cli", "CLI"],
  ["/docs/using-the-api", "Using the API"],
  ["/docs/api", "API reference"],
  ["/docs/connect-your-product", "Connect your product"],
  ["/docs/webhooks", "Webhooks and emails"],
  ["/docs/operations", "Operations"],
  ["/docs/production", "Production"],
  ["/docs/contributing", "How it works inside"],
] as const;
