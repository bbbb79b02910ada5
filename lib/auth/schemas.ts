import { z } from "zod";
import { nameSchema } from "@/lib/auth/names";
import { pageQuerySchema, pageSchema } from "@/lib/contract/pagination";

// Request and response shapes of the identity API (users, teams, members, API keys).

export const roleSchema = z.enum(["admin", "member", "annotator"]);
const timestamp = z.string().datetime({ offset: true });

export const userSchema = z.object({
  id: z.string().uuid(),
  username: z.string(),
  email: z.string(),
  is_admin: z.boolean(),
  created_at: timestamp,
});
export type UserDto = z.infer<typeof userSchema>;

export const createUserBody = z.object({
  username: nameSchema,
  email: z.string().email().max(254),
  password: z.string().min(8).max(1024).optional(),
  is_admin: z.boolean().default(false),
});
export const createdUserSchema = z.object({
  user: userSchema,
  password: z.string().optional().describe("The generated initial password, when none was given; shown once."),
});

export const meSchema = z.object({
  user: userSchema,
  teams: z.array(z.object({ id: z.string().uuid(), name: z.string(), role: roleSchema, personal: z.boolean() })),
  default_project: z.string(),
  auth: z.enum(["api_key", "password", "session"]),
});

export const changePasswordBody = z.object({
  current_password: z.string().min(1),
  new_password: z.string().min(8).max(1024),
});

export const teamSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  role: roleSchema.describe("The caller's role in the team."),
  personal: z.boolean(),
  created_at: timestamp,
});
export const createTeamBody = z.object({ name: nameSchema });
export const teamParams = z.object({ team: nameSchema });

export const memberSchema = z.object({
  user_id: z.string().uuid(),
  username: z.string(),
  email: z.string(),
  role: roleSchema,
  joined_at: timestamp,
});
export const addMemberBody = z.object({
  username: nameSchema,
  role: roleSchema.default("member"),
  email: z.string().email().max(254).optional().describe("Creates the user when no user has this username."),
  password: z.string().min(8).max(1024).optional().describe("Initial password of a created user; generated when absent."),
});
export const addedMemberSchema = z.object({
  member: memberSchema,
  created_user: z.boolean(),
  password: z.string().optional().describe("The generated initial password of a created user; shown once."),
});
export const memberParams = z.object({ team: nameSchema, username: nameSchema });
export const updateMemberBody = z.object({ role: roleSchema });

export const projectSchema = z.object({ id: z.string().uuid(), name: z.string(), team: z.string(), created_at: timestamp });

export const apiKeySchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  prefix: z.string().describe("The key's first characters, to recognise it."),
  team: z.string().nullable().describe("The only team the key acts in; null = every team of its owner."),
  created_at: timestamp,
  last_used_at: timestamp.nullable(),
  revoked_at: timestamp.nullable(),
});
export type ApiKeyDto = z.infer<typeof apiKeySchema>;
export const createApiKeyBody = z.object({
  name: z.string().trim().min(1).max(100),
  team: nameSchema.optional(),
});
export const createdApiKeySchema = apiKeySchema.extend({
  key: z.string().describe("The secret key. It is shown only in this response."),
});
export const apiKeyParams = z.object({ key_id: z.string().uuid() });
export const apiKeyListQuery = pageQuerySchema.extend({
  include_revoked: z.enum(["true", "false"]).default("false").transform((v) => v === "true"),
});

export const userPage = pageSchema(userSchema);
export const teamPage = pageSchema(teamSchema);
export const memberPage = pageSchema(memberSchema);
export const projectPage = pageSchema(projectSchema);
export const apiKeyPage = pageSchema(apiKeySchema);

export const workspaceSchema = z.object({
  team: z.string().describe("The selected team."),
  role: roleSchema.describe("The caller's role in it."),
  personal: z.boolean(),
  project: z.string().describe("The selected project of the team (it may not exist yet: projects are created on first write)."),
});
export type WorkspaceDto = z.infer<typeof workspaceSchema>;
export const setWorkspaceBody = z.object({
  team: nameSchema,
  project: nameSchema.default("default"),
});
