import type { DefaultSession } from "next-auth";

// The console's session carries the user's id (the JWT's `sub`), so server components can load
// the user without a second lookup by name.
declare module "next-auth" {
  interface Session {
    user: DefaultSession["user"] & { id: string };
  }
}
