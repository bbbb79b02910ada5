"use client";

import * as Menu from "@radix-ui/react-dropdown-menu";
import type { ComponentPropsWithoutRef, ReactNode } from "react";

// Radix DropdownMenu with Anneal's look: arrow keys move, type-ahead, Escape closes.

export const DropdownMenu = Menu.Root;
export const DropdownMenuTrigger = Menu.Trigger;
export const DropdownMenuRadioGroup = Menu.RadioGroup;

export function DropdownMenuContent({ children, align = "end", className = "", ...props }: ComponentPropsWithoutRef<typeof Menu.Content>) {
  return (
    <Menu.Portal>
      <Menu.Content
        align={align}
        sideOffset={6}
        className={`z-50 min-w-56 rounded-lg border border-zinc-200 bg-white p-1 text-sm shadow-lg focus:outline-none ${className}`}
        {...props}
      >
        {children}
      </Menu.Content>
    </Menu.Portal>
  );
}

const ITEM_CLASS =
  "flex cursor-default items-center gap-2 rounded-md px-2 py-1.5 text-zinc-700 outline-none select-none data-[disabled]:opacity-50 data-[highlighted]:bg-zinc-100 data-[highlighted]:text-zinc-900 [&_svg]:size-4 [&_svg]:text-zinc-400";

export function DropdownMenuItem({ className = "", ...props }: ComponentPropsWithoutRef<typeof Menu.Item>) {
  return <Menu.Item className={`${ITEM_CLASS} ${className}`} {...props} />;
}

export function DropdownMenuRadioItem({ children, className = "", ...props }: ComponentPropsWithoutRef<typeof Menu.RadioItem>) {
  return (
    <Menu.RadioItem className={`${ITEM_CLASS} pr-7 relative ${className}`} {...props}>
      {children}
      <Menu.ItemIndicator className="absolute right-2 inline-flex">
        <span className="size-1.5 rounded-full bg-brand-600" />
      </Menu.ItemIndicator>
    </Menu.RadioItem>
  );
}

export function DropdownMenuLabel({ children }: { children: ReactNode }) {
  return <Menu.Label className="px-2 pt-1.5 pb-1 text-[11px] font-medium tracking-wide text-zinc-400 uppercase">{children}</Menu.Label>;
}

export function DropdownMenuSeparator() {
  return <Menu.Separator className="my-1 h-px bg-zinc-100" />;
}
