import Link from "next/link";

// The Stats page's views as tabs: each a link (`?tab=`), so a view can be bookmarked and the
// server renders only the one shown.

export const STATS_TABS = [
  { id: "usage", label: "Usage", href: "/stats" },
  { id: "feedback", label: "Feedback", href: "/stats?tab=feedback" },
] as const;
export type StatsTab = (typeof STATS_TABS)[number]["id"];

export const tabId = (tab: StatsTab) => `stats-tab-${tab}`;
export const panelId = (tab: StatsTab) => `stats-panel-${tab}`;

export function StatsTabs({ active }: { active: StatsTab }) {
  return (
    <div role="tablist" aria-label="Stats views" className="mb-5 flex gap-1 border-b border-zinc-200">
      {STATS_TABS.map((tab) => {
        const selected = tab.id === active;
        return (
          <Link
            key={tab.id}
            id={tabId(tab.id)}
            href={tab.href}
            role="tab"
            aria-selected={selected}
            aria-controls={selected ? panelId(tab.id) : undefined}
            scroll={false}
            className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-600 ${selected ? "border-brand-600 text-zinc-900" : "border-transparent text-zinc-500 hover:text-zinc-800"}`}
          >
            {tab.label}
          </Link>
        );
      })}
    </div>
  );
}
