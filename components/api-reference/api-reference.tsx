"use client";

import dynamic from "next/dynamic";
import "swagger-ui-react/swagger-ui.css";
import { Skeleton } from "@/components/ui/skeleton";

// The OpenAPI document as a page: Swagger UI (npm `swagger-ui-react`; its script and styles come
// with the package, loaded only on this page) with its filter on, which matches words in tags and
// paths. Nothing is fetched from elsewhere: its layout has no online-validator badge and it loads
// no web fonts. Sending requests is off (the console is not a place to paste keys).
const SwaggerUI = dynamic(() => import("swagger-ui-react"), {
  ssr: false,
  loading: () => <Skeleton className="h-[70vh] rounded-xl" />,
});

export function ApiReference({ specUrl }: { specUrl: string }) {
  return (
    <div className="rounded-xl border border-zinc-200 bg-white py-2 shadow-xs" data-testid="api-reference">
      <SwaggerUI url={specUrl} filter supportedSubmitMethods={[]} docExpansion="list" defaultModelsExpandDepth={-1} />
    </div>
  );
}
