"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useRef } from "react";
import { applyToParams, selectionFromParams, type StatsSelection } from "@/components/feedback/stats-selection";

/** The tab's selection from its URL, and a change that writes it back. Changes build on the last
 *  one asked for, not on the URL this render saw: two changes made before the navigation of the
 *  first lands (a filter committed by leaving its field for another) both stay. */
export function useStatsSelection(): [StatsSelection, (patch: Partial<StatsSelection>) => void] {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const latest = useRef<URLSearchParams>(params);
  useEffect(() => {
    latest.current = params;
  }, [params]);
  function change(patch: Partial<StatsSelection>) {
    latest.current = applyToParams(latest.current, patch);
    router.replace(`${pathname}?${latest.current}`, { scroll: false });
  }
  return [selectionFromParams(params), change];
}
