import type { Metadata } from "next";
import Link from "next/link";

// Any address the console does not have: say so, and offer the way back (Next's own page has none).

export const metadata: Metadata = { title: "Page not found" };

export default function NotFound() {
  return (
    <main className="flex min-h-dvh items-center justify-center px-6">
      <div className="w-full max-w-md rounded-xl border border-zinc-200 bg-white p-6 text-center shadow-xs">
        <p className="font-mono text-xs text-zinc-400">404</p>
        <h1 className="mt-1 text-lg font-semibold text-zinc-900">Page not found</h1>
        <p className="mt-2 text-sm text-zinc-600">There is no page at this address. It may have moved, or the link has a typo.</p>
        <div className="mt-5 flex justify-center gap-2">
          <Link href="/" className="rounded-md bg-zinc-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-zinc-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600">
            Back to the console
          </Link>
          <Link href="/models" className="rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-700 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600">
            Models
          </Link>
        </div>
      </div>
    </main>
  );
}
