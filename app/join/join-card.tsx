import { cardClass } from "@/components/styles";
import type { JoinBrand } from "@/lib/join/brand";

/**
 * The frame of every public join page: one card, the full width of a phone, centred on a wider
 * screen (and in an embed's iframe); with the waitlist's brand, its logo above the title and its
 * accent colour along the card's top (its button takes it too: accentStyle).
 */
export function JoinCard({ title, brand, children }: { title: string; brand?: JoinBrand; children: React.ReactNode }) {
  const accent = brand?.accentColor ? { borderTopColor: brand.accentColor } : undefined;
  return (
    <main id="main" className="flex min-h-screen items-start justify-center px-3 py-6 sm:px-4 sm:py-12">
      <div className={`${cardClass} w-full max-w-md p-5 shadow-sm sm:p-6 ${accent ? "border-t-4" : ""}`} style={accent} data-testid="join-card">
        {brand?.logoUrl ? (
          // A plain img: the logo is the app's own URL, already small (lib/domain/branding/logo.ts), and next/image would add nothing.
          // eslint-disable-next-line @next/next/no-img-element
          <img src={brand.logoUrl} alt={brand.logoAlt} data-testid="join-logo" className="mb-4 h-12 w-auto max-w-full object-contain object-left sm:h-16" />
        ) : null}
        <h1 className="text-xl font-semibold text-balance">{title}</h1>
        {children}
      </div>
    </main>
  );
}

/** The main button's background in the accent colour, behind its white text (the contrast of both was checked: lib/domain/branding/accent-color.ts). */
export function accentStyle(brand: JoinBrand | undefined): React.CSSProperties | undefined {
  return brand?.accentColor ? { backgroundColor: brand.accentColor } : undefined;
}
