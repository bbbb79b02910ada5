import type { ReactNode } from "react";
import { Alert } from "@/components/ui/alert";

/** What an instance-admin settings page says to anyone else who opens it by its URL. */
export function AdminsOnly({ children }: { children: ReactNode }) {
  return (
    <Alert tone="info" title="Admins only">
      {children}
    </Alert>
  );
}
