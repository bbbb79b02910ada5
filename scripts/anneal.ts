// npm run anneal -- <command>: operator commands against this instance's database.
// With the embedded database they must run while the server is stopped (the data directory lock
// refuses a second process with a message saying so).
import { parseArgs } from "node:util";
import { createApiKey } from "@/lib/auth/api-keys";
import { resetPassword, createUser, findUserByLogin } from "@/lib/auth/users";
import { closeDatabase, getDatabase } from "@/lib/db/client";
import { migrate, pendingMigrations } from "@/lib/db/migrate";
import { AppError } from "@/lib/contract/errors";

const USAGE = `usage: npm run anneal -- <command> [options]

commands:
  migrate                                        apply pending database migrations
  create-user --username <u> --email <e> [--password <p>] [--admin]
                                                 create a user (password generated and printed when absent)
  create-api-key --email <e> --name <n> [--team <t>]
                                                 create an API key for a user; prints only the key
  reset-password --email <e> | --username <u> [--password <p>]
                                                 set a user's password (generated and printed when absent)
`;

const options = {
  username: { type: "string" },
  email: { type: "string" },
  password: { type: "string" },
  name: { type: "string" },
  team: { type: "string" },
  admin: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
} as const;

class UsageError extends Error {}

function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`missing --${flag}`);
  return value;
}

async function run(command: string | undefined, values: Record<string, string | boolean | undefined>): Promise<void> {
  const str = (flag: string) => values[flag] as string | undefined;
  switch (command) {
    case "migrate": {
      const db = getDatabase();
      const applied = await migrate(db.sql);
      console.log(applied.length ? `applied: ${applied.join(", ")}` : "the database is up to date");
      return;
    }
    case "create-user": {
      await requireMigrated();
      const { user, generatedPassword } = await createUser({
        username: required(str("username"), "username"),
        email: required(str("email"), "email"),
        password: str("password"),
        isAdmin: values.admin === true,
      });
      console.log(`created ${user.username} (${user.email})${user.isAdmin ? " as an instance admin" : ""}`);
      if (generatedPassword) console.log(`password: ${generatedPassword}`);
      return;
    }
    case "create-api-key": {
      await requireMigrated();
      const email = required(str("email"), "email");
      const user = await findUserByLogin(email);
      if (!user) throw new UsageError(`no user with email ${email}`);
      const created = await createApiKey(
        { user: { ...user }, via: "password" },
        { name: required(str("name"), "name"), team: str("team") },
      );
      console.log(created.key); // only the key, so scripts can capture it
      return;
    }
    case "reset-password": {
      await requireMigrated();
      const login = str("email") ?? str("username");
      if (!login) throw new UsageError("give --email or --username");
      const password = await resetPassword(login, str("password"));
      console.log(str("password") ? `password of ${login} changed` : `new password of ${login}: ${password}`);
      return;
    }
    default:
      throw new UsageError(command ? `unknown command '${command}'` : "no command given");
  }
}

async function requireMigrated(): Promise<void> {
  const pending = await pendingMigrations(getDatabase().sql);
  if (pending.length) throw new UsageError(`the database has pending migrations: run 'npm run anneal -- migrate' (or npm start) first`);
}

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({ options, allowPositionals: true, strict: true });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  try {
    await run(positionals[0], values);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`anneal: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    console.error(`anneal: ${error instanceof AppError || error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await closeDatabase().catch(() => undefined);
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`anneal: ${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  },
);
