import { NextResponse, type NextRequest } from "next/server";

// The console's sign-in gate (Next 16's proxy, formerly middleware). It only checks that a session
// cookie is present and otherwise sends the browser to /login, coming back afterwards; the console
// layout verifies the session itself. The matcher leaves out the API (/v1, /feedback,
// /annotation_queues), next-auth (/api/auth), the sign-in page and static files, so API clients get
// the API's JSON 401, never a redirect.

const SESSION_COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

export function proxy(request: NextRequest) {
  if (SESSION_COOKIES.some((name) => request.cookies.has(name))) return NextResponse.next();
  const login = new URL("/login", request.url);
  const back = request.nextUrl.pathname + request.nextUrl.search;
  if (back !== "/") login.searchParams.set("callbackUrl", back);
  return NextResponse.redirect(login);
}

export const config = {
  matcher: ["/((?!v1(?:/|$)|feedback(?:/|$)|annotation_queues(?:/|$)|api/auth(?:/|$)|login(?:/|$)|_next/|favicon\\.ico$|icon\\.svg$).*)"],
};
