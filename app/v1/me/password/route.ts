// PUT /v1/me/password — change the caller's own password
import { clientAddress } from "@/lib/auth/client-address";
import { changeMyPassword } from "@/lib/auth/operations";
import { changeOwnPassword } from "@/lib/auth/users";
import { handle } from "@/lib/http/handle";

export const PUT = handle(changeMyPassword, async ({ req, principal, body }) => {
  await changeOwnPassword(principal, body.current_password, body.new_password, clientAddress(req.headers));
  return {};
});
