import type { Metadata } from "next";
import { ModelDetail } from "@/components/models/model-detail";
import { requestOrigin, requireTeamArea } from "@/lib/auth/console-session";

export const metadata: Metadata = { title: "Model" };
export const dynamic = "force-dynamic";

export default async function ModelPage({ params, searchParams }: { params: Promise<{ model_id: string }>; searchParams: Promise<{ created?: string }> }) {
  await requireTeamArea();
  const { model_id } = await params;
  const { created } = await searchParams;
  return <ModelDetail modelId={model_id} origin={await requestOrigin()} justCreated={created !== undefined} />;
}
