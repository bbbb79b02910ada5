import type { ReactNode } from "react";
import { SettingsTabs } from "@/components/settings/settings-tabs";

export default function SettingsLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <h1 className="mb-4 text-xl font-semibold tracking-tight text-zinc-900">Settings</h1>
      <SettingsTabs />
      {children}
    </>
  );
}
