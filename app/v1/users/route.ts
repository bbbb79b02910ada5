// GET /v1/users — list users; POST /v1/users — create a user (instance admins)
import { createUserOp, listUsersOp } from "@/lib/auth/operations";
import { createUser, listUsers, toUserDto } from "@/lib/auth/users";
import { handle } from "@/lib/http/handle";

export const GET = handle(listUsersOp, ({ query }) => listUsers(query));

export const POST = handle(createUserOp, async ({ body }) => {
  const { user, generatedPassword } = await createUser({
    username: body.username,
    email: body.email,
    password: body.password,
    isAdmin: body.is_admin,
  });
  return { user: toUserDto(user), ...(generatedPassword ? { password: generatedPassword } : {}) };
});
