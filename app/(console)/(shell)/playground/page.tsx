import type { Metadata } from "next";
import { Playground } from "@/components/playground/playground";
import { requestOrigin, requireTeamArea } from "@/lib/auth/console-session";

export const metadata: Metadata = { title: "Playground" };
export const dynamic = "force-dynamic";

export default async function PlaygroundPage({ searchParams }: { searchParams: Promise<{ model?: string | string[]; compare?: string | string[] }> }) {
  await requireTeamArea();
  // `?model=` opens the playground on a model (or `name:stepN` checkpoint), e.g. from the Models page;
  // `&compare=` opens it side by side with another (a job's checkpoint beside its base model).
  const { model, compare } = await searchParams;
  // The origin as the browser sees it, for the "Get code" snippets.
  return (
    <Playground
      origin={await requestOrigin()}
      initialModel={typeof model === "string" ? model : undefined}
      initialCompare={typeof compare === "string" && compare ? compare : undefined}
    />
  );
}
