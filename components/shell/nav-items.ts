import { BarChart3, Boxes, FlaskConical, Inbox, ListChecks, PenLine, ScrollText, type LucideIcon } from "lucide-react";
import type { Role } from "@/components/identity/queries";

// The console's areas. Annotators see only the annotation area (docs/contract.md: roles).

export interface NavItem {
  href: string;
  label: string;
  icon: LucideIcon;
}

export const TEAM_NAV: NavItem[] = [
  { href: "/playground", label: "Playground", icon: FlaskConical },
  { href: "/calls", label: "Calls", icon: ScrollText },
  { href: "/models", label: "Models", icon: Boxes },
  { href: "/jobs", label: "Jobs", icon: ListChecks },
  { href: "/stats", label: "Stats", icon: BarChart3 },
  { href: "/queues", label: "Queues", icon: Inbox },
];

export const ANNOTATE_NAV: NavItem = { href: "/annotate", label: "Annotate", icon: PenLine };

export const navFor = (role: Role): NavItem[] => (role === "annotator" ? [ANNOTATE_NAV] : [...TEAM_NAV, ANNOTATE_NAV]);

/** Paths an annotator may open; everything else sends them to /annotate (the API reference shows only the public document). */
export const ANNOTATOR_PATHS = ["/annotate", "/settings/account", "/api-reference"];

export const isAnnotatorPath = (pathname: string) =>
  ANNOTATOR_PATHS.some((path) => pathname === path || pathname.startsWith(`${path}/`));

export const landingPath = (role: Role) => (role === "annotator" ? "/annotate" : "/playground");
