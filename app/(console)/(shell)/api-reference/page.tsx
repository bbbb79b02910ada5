import type { Metadata } from "next";
import { ApiReference } from "@/components/api-reference/api-reference";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "API reference" };

const SPEC_URL = "/v1/openapi.json";

// /api-reference: the OpenAPI document, rendered to read and filter, beside a link to the raw JSON.
export default function ApiReferencePage() {
  return (
    <>
      <PageHeader
        title="API reference"
        description={
          <>
            Every route, its parameters, bodies and answers, from the same schemas the server checks requests with. Filter by a
            word of a path or tag. The raw document:{" "}
            <a href={SPEC_URL} className="font-mono text-brand-700 hover:underline">
              {SPEC_URL}
            </a>
            .
          </>
        }
      />
      <ApiReference specUrl={SPEC_URL} />
    </>
  );
}
