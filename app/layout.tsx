import type { Metadata } from "next";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Anneal", template: "%s · Anneal" },
  description: "Train, serve and judge language models",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="bg-zinc-50 font-sans text-zinc-900 antialiased">{children}</body>
    </html>
  );
}
