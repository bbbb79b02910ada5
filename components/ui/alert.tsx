import { AlertTriangle, CircleAlert, Info } from "lucide-react";
import type { ReactNode } from "react";

const TONES = {
  error: { box: "border-red-200 bg-red-50 text-red-800", Icon: CircleAlert, icon: "text-red-500" },
  warning: { box: "border-amber-200 bg-amber-50 text-amber-900", Icon: AlertTriangle, icon: "text-amber-500" },
  info: { box: "border-sky-200 bg-sky-50 text-sky-900", Icon: Info, icon: "text-sky-500" },
} as const;

/** A message box; errors are announced to screen readers (role=alert). */
export function Alert({ tone = "error", title, children, action }: { tone?: keyof typeof TONES; title?: string; children?: ReactNode; action?: ReactNode }) {
  const { box, Icon, icon } = TONES[tone];
  return (
    <div role={tone === "error" ? "alert" : "status"} className={`flex gap-2.5 rounded-lg border px-3 py-2.5 text-sm ${box}`}>
      <Icon className={`mt-0.5 size-4 shrink-0 ${icon}`} aria-hidden />
      <div className="min-w-0 flex-1">
        {title && <p className="font-medium">{title}</p>}
        {children && <div className={title ? "mt-0.5 opacity-90" : ""}>{children}</div>}
      </div>
      {action}
    </div>
  );
}
