import type { Metadata } from "next";
import { ModelsView } from "@/components/models/models-view";
import { requestOrigin, requireTeamArea } from "@/lib/auth/console-session";

export const metadata: Metadata = { title: "Models" };
export const dynamic = "force-dynamic";

export default async function ModelsPage() {
  await requireTeamArea();
  // The origin as the browser sees it, for the "create a model from code" snippet.
  return <ModelsView origin={await requestOrigin()} />;
}
