// /api/auth/* — next-auth (sign-in, sign-out, session, CSRF token)
import NextAuth from "next-auth";
import { getAuthOptions } from "@/lib/auth/next-auth";

type Context = { params: Promise<{ nextauth: string[] }> };

async function handler(req: Request, context: Context): Promise<Response> {
  return NextAuth(await getAuthOptions())(req, { params: await context.params });
}

export { handler as GET, handler as POST };
