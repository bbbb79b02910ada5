"use client";

import { SHORTCUTS } from "@/components/annotate/use-annotate-shortcuts";
import { Kbd, modifierKey } from "@/components/playground/kbd";
import { Dialog, DialogContent, DialogDone } from "@/components/ui/dialog";

// `?`: every key of the annotation screen, from the one table the keyboard handler documents.

export function ShortcutsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const mod = modifierKey();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title="Keyboard shortcuts" description="Single keys act when you are not typing in a field.">
        <table className="w-full text-sm">
          <tbody className="divide-y divide-zinc-100">
            {SHORTCUTS.map(({ keys, action }) => (
              <tr key={action}>
                <td className="py-1.5 pr-4 whitespace-nowrap">
                  {keys.map((key) => (
                    <span key={key} className="mr-1 inline-block">
                      <Kbd>{key.replace("mod", mod)}</Kbd>
                    </span>
                  ))}
                </td>
                <td className="py-1.5 text-zinc-700">{action}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <DialogDone />
      </DialogContent>
    </Dialog>
  );
}
