import type { Metadata } from "next";
import { ApiReference } from "@/components/api-reference/api-reference";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "API reference" };

// /api-reference: the OpenAPI document (/v1/openapi.json), rendered to read and search.
export default function ApiReferencePage() {
  return (
    <>
      <PageHeader
        title="API reference"
        description={
          <>
            Every route, its parameters, bodies and answers, from the same schemas the server checks requests with. The raw document:{" "}
            <a href="/v1/openapi.json" className="font-mono text-brand-700 hover:underline">
              /v1/openapi.json
            </a>
            .
          </>
        }
      />
      <ApiReference specUrl="/v1/openapi.json" />
    </>
  );
}
