import type { HTMLAttributes, ReactNode, TdHTMLAttributes, ThHTMLAttributes } from "react";

// Plain semantic tables with the console's density.

export function Table({ children, label }: { children: ReactNode; label: string }) {
  return (
    <div className="overflow-x-auto">
      <table aria-label={label} className="w-full border-collapse text-left text-sm text-zinc-700">
        {children}
      </table>
    </div>
  );
}

/** The header row: its `Th` cells. */
export function THead({ children }: { children: ReactNode }) {
  return (
    <thead className="border-b border-zinc-100 bg-zinc-50/60 text-xs text-zinc-500">
      <tr>{children}</tr>
    </thead>
  );
}

export function Th({ className = "", ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th scope="col" className={`px-4 py-2 font-medium ${className}`} {...props} />;
}

/** The header of a last column of row actions: named for screen readers only. */
export function ThActions() {
  return (
    <Th className="text-right">
      <span className="sr-only">Actions</span>
    </Th>
  );
}

export function Tr({ className = "", ...props }: HTMLAttributes<HTMLTableRowElement>) {
  return <tr className={`border-b border-zinc-100 last:border-0 hover:bg-zinc-50/60 ${className}`} {...props} />;
}

export function Td({ className = "", ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={`px-4 py-2.5 align-middle ${className}`} {...props} />;
}
