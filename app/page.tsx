import { redirect } from "next/navigation";
import { landingPath } from "@/components/shell/nav-items";
import { getConsoleSession } from "@/lib/auth/console-session";

// "/" is the signed-in user's landing page: the annotation area for annotators, else the
// playground. Reads the session: never prerendered.
export const dynamic = "force-dynamic";

export default async function Home() {
  const session = await getConsoleSession();
  redirect(session ? landingPath(session.workspace.role) : "/login");
}
