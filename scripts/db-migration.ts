// npm run db:migration -- <name>: write the migration that brings prisma/migrations up to schema.prisma.
import { createMigration } from "@/lib/db/schema-diff";

const name = process.argv[2];
if (!name) {
  console.error("usage: npm run db:migration -- <name>   (e.g. add_training_jobs)");
  process.exit(2);
}
const folder = await createMigration(name);
console.log(folder ? `wrote ${folder}/migration.sql` : "schema.prisma and the migrations agree: nothing to write");
process.exit(0); // PGlite keeps the event loop alive
