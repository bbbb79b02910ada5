import type { BootstrapReport } from "@/lib/auth/bootstrap";
import type { Env } from "@/lib/config/env";

export function describeStartup({ env, database, report }: { env: Env; database: string; report: BootstrapReport }): string {
  const host = env.HOST === "0.0.0.0" ? "localhost" : env.HOST;
  const lines = [
    "",
    `  Anneal is running at http://${host}:${env.PORT}`,
    `  database: ${database}`,
  ];
  const admin = report.createdAdmin;
  if (admin) {
    lines.push(`  first admin created: ${admin.username} (${admin.email})`);
    if (admin.generatedPassword) {
      lines.push(`  admin password (shown once, change it in Settings): ${admin.generatedPassword}`);
    } else {
      lines.push("  admin password: the value of ANNEAL_ADMIN_PASSWORD");
    }
  }
  if (report.initApiKey) lines.push(`  ANNEAL_INIT_API_KEY: ${report.initApiKey === "created" ? "registered" : "active"} for the admin`);
  lines.push("");
  return lines.join("\n");
}
