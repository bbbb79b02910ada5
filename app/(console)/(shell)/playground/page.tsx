import { FlaskConical } from "lucide-react";
import type { Metadata } from "next";
import { FeaturePlaceholder } from "@/components/shell/feature-placeholder";
import { projectRef, requestOrigin, requireTeamArea } from "@/lib/auth/console-session";

export const metadata: Metadata = { title: "Playground" };
export const dynamic = "force-dynamic";

export default async function PlaygroundPage() {
  const session = await requireTeamArea();
  const origin = await requestOrigin();
  return (
    <FeaturePlaceholder
      icon={FlaskConical}
      title="Playground"
      description="Chat with any base model or trained checkpoint and compare sampling settings side by side."
      emptyTitle="The playground is on its way"
      emptyText={
        <>
          Every model Anneal serves already answers on the OpenAI-compatible chat API. Calls sent with{" "}
          <code className="font-mono text-xs">Svc-Project: {projectRef(session)}</code> are recorded in this project.
        </>
      }
      features={[
        "Chat with base models and any checkpoint",
        "Tune temperature, top-p, max tokens and stop words",
        "See token logprobs of every answer",
        "Send a good conversation to an SFT dataset",
      ]}
      snippet={{
        title: "Chat completion",
        code: `curl ${origin}/v1/chat/completions \\
  -H "Authorization: Bearer $ANNEAL_API_KEY" \\
  -H "Svc-Project: ${projectRef(session)}" \\
  -H "Content-Type: application/json" \\
  -d '{
    "messages": [
      {"role": "user", "content": "Hello!"}
    ]
  }'`,
      }}
    />
  );
}
