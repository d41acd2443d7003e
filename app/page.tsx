import { listWaitlists } from "@/lib/waitlists";

export const dynamic = "force-dynamic";

export default function HomePage() {
  const { items } = listWaitlists();
  return (
    <main className="mx-auto max-w-5xl p-6">
      <h1 className="text-2xl font-semibold">Waitlists</h1>
      <ul className="mt-4 list-disc pl-6">
        {items.map((waitlist) => (
          <li key={waitlist.id}>{waitlist.name}</li>
        ))}
      </ul>
    </main>
  );
}
