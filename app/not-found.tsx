import Link from "next/link";

// Every notFound() of a page (an id that is not the seller's, or does not exist) and every unknown
// address lands here, inside the app's layout.
export default function NotFound() {
  return (
    <section className="mx-auto max-w-lg space-y-4 rounded-lg border border-zinc-200 bg-white p-8">
      <h1 className="text-2xl font-semibold tracking-tight">Page not found</h1>
      <p className="text-sm text-zinc-700">
        There is nothing here for your account: the address may be mistyped, or what it pointed to belongs to another
        account or no longer exists.
      </p>
      <div className="flex gap-4 text-sm">
        <Link href="/" className="font-medium text-brand-700 hover:underline">
          Back to the start
        </Link>
        <Link href="/orders" className="text-zinc-600 hover:underline">
          Orders
        </Link>
      </div>
    </section>
  );
}
