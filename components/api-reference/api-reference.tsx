"use client";

import { useEffect, useState } from "react";
import { Skeleton } from "@/components/ui/skeleton";

// The OpenAPI document as a page: RapiDoc (npm `rapidoc`, a web component whose script and styles
// come with the package) renders it with a navigation that filters by words in paths and
// summaries. Nothing is fetched from elsewhere: its web fonts are off (`load-fonts="false"`, the
// console's own fonts apply) and "try it" is off (the console is not a place to paste keys).

export function ApiReference({ specUrl }: { specUrl: string }) {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    // The element registers itself when its script loads: in the browser only.
    void import("rapidoc").then(() => setReady(true));
  }, []);
  if (!ready) return <Skeleton className="h-[70vh] rounded-xl" />;
  return (
    <div className="overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-xs" data-testid="api-reference">
      <rapi-doc
        spec-url={specUrl}
        load-fonts="false"
        render-style="read"
        theme="light"
        bg-color="#ffffff"
        nav-bg-color="#fafafa"
        primary-color="#c2410c"
        regular-font="ui-sans-serif, system-ui, sans-serif"
        mono-font="ui-monospace, SFMono-Regular, Menlo, monospace"
        show-header="false"
        allow-try="false"
        allow-authentication="false"
        allow-server-selection="false"
        allow-spec-url-load="false"
        allow-spec-file-load="false"
        allow-search="true"
        allow-advanced-search="true"
        schema-description-expanded="true"
        style={{ height: "calc(100vh - 12rem)", width: "100%" }}
      />
    </div>
  );
}
