import type { Metadata } from "next";
import { AdminsOnly } from "@/components/settings/admins-only";
import { WorkerKeysPanel } from "@/components/worker-keys/worker-keys-panel";
import { requestOrigin, requireTeamArea } from "@/lib/auth/console-session";

export const metadata: Metadata = { title: "Worker keys" };
export const dynamic = "force-dynamic";

export default async function WorkerKeysPage() {
  const session = await requireTeamArea();
  if (!session.principal.user.isAdmin) {
    return <AdminsOnly>Worker keys are for this instance&apos;s admins: ask one for a key to start a training worker with.</AdminsOnly>;
  }
  return <WorkerKeysPanel origin={await requestOrigin()} />;
}
