"use client";

import { ChevronLeft } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { Alert } from "@/components/ui/alert";
import { QueryError } from "@/components/ui/query-error";
import { Skeleton } from "@/components/ui/skeleton";
import { ApiError } from "@/lib/client/api-fetch";

// The pieces of one resource's own page (/models/{id}, /jobs/{id}): the back link and heading,
// its facts, and what shows while it loads or when it cannot be loaded.

/** Back to the list, the heading (with a badge or a line under it) and the page's actions. */
export function DetailHeader({ back, title, badge, subtitle, actions }: { back: { href: string; label: string }; title: ReactNode; badge?: ReactNode; subtitle?: ReactNode; actions?: ReactNode }) {
  return (
    <div>
      <Link href={back.href} className="inline-flex items-center gap-1 text-xs font-medium text-zinc-500 hover:text-zinc-800">
        <ChevronLeft className="size-3.5" aria-hidden /> {back.label}
      </Link>
      <div className="mt-1 flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <div className="flex items-center gap-3">
            <h1 className="text-xl font-semibold tracking-tight text-zinc-900">{title}</h1>
            {badge}
          </div>
          {subtitle}
        </div>
        {actions && <div className="flex shrink-0 items-center gap-2">{actions}</div>}
      </div>
    </div>
  );
}

/** One labelled value in a <dl>. */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium text-zinc-500">{label}</dt>
      <dd className="mt-0.5 text-sm text-zinc-900">{children}</dd>
    </div>
  );
}

/** The page's outline while the resource loads. */
export function DetailSkeleton({ label }: { label: string }) {
  return (
    <div role="status" aria-label={label} className="space-y-4">
      <Skeleton className="h-7 w-80" />
      <Skeleton className="h-20 w-full" />
      <Skeleton className="h-64 w-full" />
    </div>
  );
}

interface DetailLoadErrorProps {
  error: unknown;
  retry: () => void;
  /** e.g. "the job", for "Could not load the job". */
  what: string;
  /** Shown instead when the API says there is no such resource (404, or 422 for a malformed id). */
  notFound: { title: string; reason: string; href: string; link: string };
}

/** Not found (with a link to the list), or any other failure with a retry. */
export function DetailLoadError({ error, retry, what, notFound }: DetailLoadErrorProps) {
  const missing = error instanceof ApiError && (error.status === 404 || error.status === 422);
  if (!missing) return <QueryError what={what} error={error} retry={retry} />;
  return (
    <Alert
      title={notFound.title}
      action={
        <Link href={notFound.href} className="text-sm font-medium text-red-800 underline">
          {notFound.link}
        </Link>
      }
    >
      {notFound.reason}
    </Alert>
  );
}
