import type { AuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { authenticatePassword } from "@/lib/auth/authenticate";
import { clientAddress } from "@/lib/auth/client-address";
import { retryAfterSeconds } from "@/lib/auth/password-attempts";
import { rateLimitedSignInError } from "@/lib/auth/sign-in-error";
import { AppError } from "@/lib/contract/errors";
import { getAuthSecret } from "@/lib/auth/secret";
import { getDb } from "@/lib/db/client";

// Console sign-in: next-auth Credentials (username or email + password), JWT sessions in
// httpOnly SameSite=Lax cookies. The JWT's `sub` is the user id; route handlers decode it
// (lib/auth/authenticate.ts) and look the user up on every request.

export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

export async function getAuthOptions(): Promise<AuthOptions> {
  return {
    secret: await getAuthSecret(),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/login" },
    providers: [
      CredentialsProvider({
        name: "Anneal",
        credentials: {
          login: { label: "Username or email", type: "text" },
          password: { label: "Password", type: "password" },
        },
        async authorize(credentials, req) {
          if (!credentials?.login || !credentials.password) return null;
          const origin = { address: clientAddress(req.headers ?? {}), via: "console" } as const;
          const principal = await authenticatePassword(credentials.login, credentials.password, origin).catch((error: unknown) => {
            // next-auth hands a thrown error's message to the sign-in form as `error`.
            if (error instanceof AppError && error.code === "rate_limited") throw new Error(rateLimitedSignInError(retryAfterSeconds(error)));
            throw error;
          });
          if (!principal) return null;
          await getDb().user.update({ where: { id: principal.user.id }, data: { lastLoginAt: new Date() } });
          return { id: principal.user.id, name: principal.user.username, email: principal.user.email };
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user) token.sub = user.id;
        return token;
      },
      session({ session, token }) {
        if (session.user && token.sub) session.user.id = token.sub;
        return session;
      },
    },
  };
}
