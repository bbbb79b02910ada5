import { ArrowUpRight, type LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { PageHeader } from "@/components/ui/page-header";
import { Panel } from "@/components/ui/panel";

// The empty state of a console area whose page is not built yet: what the page will do, what
// already works, and the API to use meanwhile.

export interface FeaturePlaceholderProps {
  icon: LucideIcon;
  title: string;
  description: string;
  emptyTitle: string;
  emptyText: ReactNode;
  /** What the page will offer. */
  features: string[];
  snippet?: { title: string; code: string };
  links?: { href: string; label: string }[];
}

export function FeaturePlaceholder({ icon: Icon, title, description, emptyTitle, emptyText, features, snippet, links = [] }: FeaturePlaceholderProps) {
  const allLinks = [...links, { href: "/api-reference", label: "API reference" }];
  return (
    <>
      <PageHeader title={title} description={description} />
      <div className="grid items-start gap-5 lg:grid-cols-5">
        <Panel className={snippet ? "lg:col-span-3" : "lg:col-span-5"}>
          <div className="flex flex-col items-center px-8 pt-12 pb-10 text-center">
            <span className="flex size-12 items-center justify-center rounded-xl bg-brand-50 text-brand-600 ring-1 ring-brand-100">
              <Icon className="size-6" aria-hidden />
            </span>
            <h2 className="mt-4 text-base font-semibold text-zinc-900">{emptyTitle}</h2>
            <p className="mt-1.5 max-w-md text-sm leading-relaxed text-zinc-500">{emptyText}</p>
            <div className="mt-5 flex flex-wrap justify-center gap-2">
              {allLinks.map((link) => (
                <a
                  key={link.href}
                  href={link.href}
                  target="_blank"
                  rel="noreferrer"
                  className="inline-flex items-center gap-1 rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-[13px] font-medium text-zinc-800 shadow-xs hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
                >
                  {link.label}
                  <ArrowUpRight className="size-3.5 text-zinc-400" aria-hidden />
                </a>
              ))}
            </div>
          </div>
          <div className="border-t border-zinc-100 bg-zinc-50/60 px-6 py-4">
            <h3 className="text-xs font-medium tracking-wide text-zinc-500 uppercase">What this page will do</h3>
            <ul className="mt-2 grid gap-1.5 text-sm text-zinc-600 sm:grid-cols-2">
              {features.map((feature) => (
                <li key={feature} className="flex gap-2">
                  <span className="mt-2 size-1 shrink-0 rounded-full bg-brand-500" aria-hidden />
                  {feature}
                </li>
              ))}
            </ul>
          </div>
        </Panel>
        {snippet && (
          <Panel className="lg:col-span-2" title={snippet.title} description="From your code, with an API key from Settings → API keys.">
            <pre className="overflow-x-auto bg-zinc-950 p-4 font-mono text-[12px] leading-relaxed text-zinc-100">
              <code>{snippet.code}</code>
            </pre>
          </Panel>
        )}
      </div>
    </>
  );
}
