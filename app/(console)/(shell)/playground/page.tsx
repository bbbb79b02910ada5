import type { Metadata } from "next";
import { Playground } from "@/components/playground/playground";
import { requestOrigin, requireTeamArea } from "@/lib/auth/console-session";

export const metadata: Metadata = { title: "Playground" };
export const dynamic = "force-dynamic";

export default async function PlaygroundPage() {
  await requireTeamArea();
  // The origin as the browser sees it, for the "Get code" snippets.
  return <Playground origin={await requestOrigin()} />;
}
