"use client";

import { Button } from "@/components/ui/button";

/** What "Load more" needs of a cursor-paged list (react-query's useInfiniteQuery result). */
export interface NextPages {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

/** "Load more" under a cursor-paged list, until its last page is in; `compact` in a form's scroll box. */
export function LoadMoreFooter({ pages, compact = false }: { pages: NextPages; compact?: boolean }) {
  if (!pages.hasNextPage) return null;
  return (
    <div className={`border-t border-zinc-100 text-center ${compact ? "p-2" : "p-3"}`}>
      <Button variant="secondary" size="sm" onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
        {pages.isFetchingNextPage ? "Loading…" : "Load more"}
      </Button>
    </div>
  );
}
