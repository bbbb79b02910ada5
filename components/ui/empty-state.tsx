import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";

/** What an empty list says instead: an icon, a heading, what to do, and the action that does it. */
export function EmptyState({ icon: Icon, title, children, action, footer }: { icon: LucideIcon; title?: ReactNode; children: ReactNode; action?: ReactNode; footer?: ReactNode }) {
  return (
    <div className="flex flex-col items-center px-6 py-10 text-center">
      <span className="flex size-10 items-center justify-center rounded-lg bg-brand-50 text-brand-600 ring-1 ring-brand-100">
        <Icon className="size-5" aria-hidden />
      </span>
      {title && <h3 className="mt-3 text-sm font-semibold text-zinc-900">{title}</h3>}
      <div className={`${title ? "mt-1" : "mt-3"} max-w-md text-sm text-zinc-500`}>{children}</div>
      {action && <div className="mt-4">{action}</div>}
      {footer}
    </div>
  );
}
