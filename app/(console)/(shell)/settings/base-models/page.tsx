import type { Metadata } from "next";
import { BaseModelsSettings } from "@/components/base-models/base-models-settings";
import { AdminsOnly } from "@/components/settings/admins-only";
import { requireTeamArea } from "@/lib/auth/console-session";

export const metadata: Metadata = { title: "Base models" };
export const dynamic = "force-dynamic";

export default async function BaseModelsPage() {
  const session = await requireTeamArea();
  if (!session.principal.user.isAdmin) {
    return <AdminsOnly>Base models are managed by this instance&apos;s admins. Ask one to add the base you need.</AdminsOnly>;
  }
  return <BaseModelsSettings />;
}
