import type { ReactNode } from "react";

/** A bordered white surface; `title` and `actions` make a header row. */
export function Panel({ title, description, actions, children, className = "" }: { title?: ReactNode; description?: ReactNode; actions?: ReactNode; children: ReactNode; className?: string }) {
  return (
    <section className={`overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-xs ${className}`}>
      {(title || actions) && (
        <header className="flex items-center justify-between gap-4 border-b border-zinc-100 px-4 py-3">
          <div className="min-w-0">
            {title && <h2 className="text-sm font-semibold text-zinc-900">{title}</h2>}
            {description && <p className="mt-0.5 text-xs text-zinc-500">{description}</p>}
          </div>
          {actions && <div className="flex shrink-0 items-center gap-2">{actions}</div>}
        </header>
      )}
      {children}
    </section>
  );
}
