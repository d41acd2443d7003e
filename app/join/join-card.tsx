import { cardClass } from "@/components/styles";

/** The frame of every public join page: one card, the full width of a phone, centred on a wider screen (and in an embed's iframe). */
export function JoinCard({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <main id="main" className="flex min-h-screen items-start justify-center px-3 py-6 sm:px-4 sm:py-12">
      <div className={`${cardClass} w-full max-w-md p-5 shadow-sm sm:p-6`}>
        <h1 className="text-xl font-semibold text-balance">{title}</h1>
        {children}
      </div>
    </main>
  );
}
