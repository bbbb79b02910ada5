import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { Role } from "@/components/identity/queries";

const TONE: Record<Role, BadgeTone> = { admin: "brand", member: "blue", annotator: "violet" };

export const ROLE_LABEL: Record<Role, string> = { admin: "Admin", member: "Member", annotator: "Annotator" };

export const ROLE_HELP: Record<Role, string> = {
  admin: "Everything, including members",
  member: "Everything except managing members",
  annotator: "Only annotation work",
};

export function RoleBadge({ role, subtle }: { role: Role; subtle?: boolean }) {
  if (subtle) return <span className="text-xs text-zinc-400">{ROLE_LABEL[role].toLowerCase()}</span>;
  return <Badge tone={TONE[role]}>{ROLE_LABEL[role]}</Badge>;
}
