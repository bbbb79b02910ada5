import { defineConfig } from "prisma/config";

// Used only by Prisma's CLI (`generate`); Anneal applies migrations itself (lib/db/migrate.ts).
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
