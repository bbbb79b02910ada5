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

type Subtree = { spec: unknown; errors: unknown[] };
type ResolveSubtree = (spec: Record<string, unknown>, path: string[], options: object) => Promise<Subtree>;

/**
 * Opening an operation resolves its part of the document; for OpenAPI 3.1 Swagger UI walks the
 * whole document to do it (~5 s per operation on ours, 424 kB). Ours has no `$ref` (zod inlines
 * every schema), so the part is read as it is; a document with references is resolved as usual.
 */
function readSubtreesWithoutRefs(system: { fn: { resolveSubtree: ResolveSubtree } }) {
  const resolveSubtree = system.fn.resolveSubtree;
  const read: ResolveSubtree = async (spec, path, options) => {
    if (JSON.stringify(spec).includes('"$ref"')) return resolveSubtree(spec, path, options);
    return { spec: path.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], spec), errors: [] };
  };
  return { fn: { resolveSubtree: read } };
}

export function ApiReference({ specUrl }: { specUrl: string }) {
  return (
    <div className="rounded-xl border border-zinc-200 bg-white py-2 shadow-xs" data-testid="api-reference">
      <SwaggerUI url={specUrl} filter supportedSubmitMethods={[]} docExpansion="list" defaultModelsExpandDepth={-1} plugins={[readSubtreesWithoutRefs]} />
    </div>
  );
}
