import { buttonClass, inputClass, mutedText, primaryButtonClass } from "@/components/styles";
import { formatBytes } from "@/lib/core/bytes";
import { MAX_LOGO_BYTES } from "@/lib/domain/branding/logo";

/** The join page's logo: upload one (PNG, JPEG or WebP), or remove it. A form of its own: it sends a file. */
export function LogoForm({ waitlistId, logoUrl }: { waitlistId: string; logoUrl: string | undefined }) {
  return (
    <section aria-labelledby="logo-heading" className="mt-8 max-w-2xl">
      <h2 id="logo-heading" className="text-lg font-semibold">
        Logo
      </h2>
      <p className={`text-sm ${mutedText}`}>
        Shown above the headline and on the link preview. PNG, JPEG or WebP, at most {formatBytes(MAX_LOGO_BYTES)}; stored in the database and served by this app.
      </p>
      {logoUrl ? (
        // eslint-disable-next-line @next/next/no-img-element
        <img src={logoUrl} alt="The current logo" data-testid="current-logo" className="mt-2 h-16 w-auto rounded border border-zinc-200 bg-white p-1 dark:border-zinc-800" />
      ) : null}
      <form method="post" action={`/waitlists/${waitlistId}/join/logo`} encType="multipart/form-data" className="mt-3 flex flex-wrap items-end gap-3">
        <label className="grid gap-1 text-sm">
          Logo file
          <input type="file" name="logo" required accept="image/png,image/jpeg,image/webp" className={inputClass} />
        </label>
        <button type="submit" className={primaryButtonClass}>
          Upload the logo
        </button>
      </form>
      {logoUrl ? (
        <form method="post" action={`/waitlists/${waitlistId}/join/logo`} encType="multipart/form-data" className="mt-3">
          <input type="hidden" name="remove" value="true" />
          <button type="submit" className={buttonClass}>
            Remove the logo
          </button>
        </form>
      ) : null}
    </section>
  );
}
