import { Boxes } from "lucide-react";
import type { Metadata } from "next";
import { FeaturePlaceholder } from "@/components/shell/feature-placeholder";
import { requestOrigin, requireTeamArea } from "@/lib/auth/console-session";

export const metadata: Metadata = { title: "Models" };
export const dynamic = "force-dynamic";

export default async function ModelsPage() {
  const { workspace } = await requireTeamArea();
  const origin = await requestOrigin();
  return (
    <FeaturePlaceholder
      icon={Boxes}
      title="Models"
      description="Base models this instance serves and the models your team trains, with every checkpoint and its metrics."
      emptyTitle={`No trained models in ${workspace.team}/${workspace.project} yet`}
      emptyText="Create a model on a trainable base model, then train it with an RL or SFT job. Each finished job adds a checkpoint you can chat with at once."
      features={[
        "Base models, marked trainable or serve-only",
        "Trained models with their checkpoints by step",
        "Reward and loss per checkpoint",
        "Delete old checkpoints to free disk space",
      ]}
      snippet={{
        title: "Create a model",
        code: `curl ${origin}/v1/preview/models \\
  -H "Authorization: Bearer $ANNEAL_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{
    "entity": "${workspace.team}",
    "project": "${workspace.project}",
    "name": "my-agent",
    "base_model": "anneal/tiny-chat"
  }'`,
      }}
    />
  );
}
