import { z } from "zod";
import {
  addedMemberSchema,
  addMemberBody,
  apiKeyListQuery,
  apiKeyPage,
  apiKeyParams,
  apiKeySchema,
  changePasswordBody,
  createApiKeyBody,
  createdApiKeySchema,
  createdUserSchema,
  createTeamBody,
  createUserBody,
  memberPage,
  memberParams,
  memberSchema,
  meSchema,
  setWorkspaceBody,
  workspaceSchema,
  projectPage,
  teamPage,
  teamParams,
  teamSchema,
  updateMemberBody,
  userPage,
} from "@/lib/auth/schemas";
import { defineOperation } from "@/lib/contract/operation";
import { pageQuerySchema } from "@/lib/contract/pagination";

// The identity API: who am I, users (instance admins), teams and members, API keys.

export const getMe = defineOperation({
  id: "getMe", method: "GET", path: "/v1/me", tag: "Identity", auth: "bearer",
  summary: "The caller: user, teams with roles, default project",
  response: meSchema,
});

export const changeMyPassword = defineOperation({
  id: "changeMyPassword", method: "PUT", path: "/v1/me/password", tag: "Identity", auth: "bearer",
  summary: "Change the caller's own password",
  body: changePasswordBody, response: z.object({}),
});

export const getWorkspaceOp = defineOperation({
  id: "getWorkspace", method: "GET", path: "/v1/me/workspace", tag: "Identity", auth: "bearer",
  summary: "The caller's selected team and project in the console (remembered per user)",
  response: workspaceSchema,
});

export const setWorkspaceOp = defineOperation({
  id: "setWorkspace", method: "PUT", path: "/v1/me/workspace", tag: "Identity", auth: "bearer",
  summary: "Select the caller's team and project in the console",
  body: setWorkspaceBody, response: workspaceSchema,
});

export const listUsersOp = defineOperation({
  id: "listUsers", method: "GET", path: "/v1/users", tag: "Identity", auth: "bearer", instanceAdmin: true,
  summary: "List users (instance admins)",
  query: pageQuerySchema, response: userPage,
});

export const createUserOp = defineOperation({
  id: "createUser", method: "POST", path: "/v1/users", tag: "Identity", auth: "bearer", instanceAdmin: true,
  summary: "Create a user with a personal team (instance admins)", status: 201,
  body: createUserBody, response: createdUserSchema,
});

export const listTeamsOp = defineOperation({
  id: "listTeams", method: "GET", path: "/v1/teams", tag: "Identity", auth: "bearer",
  summary: "The teams the caller belongs to, with their role",
  response: teamPage,
});

export const createTeamOp = defineOperation({
  id: "createTeam", method: "POST", path: "/v1/teams", tag: "Identity", auth: "bearer", instanceAdmin: true,
  summary: "Create a team; the caller becomes its admin (instance admins)", status: 201,
  body: createTeamBody, response: teamSchema,
});

export const listProjectsOp = defineOperation({
  id: "listProjects", method: "GET", path: "/v1/teams/{team}/projects", tag: "Identity", auth: "bearer",
  summary: "A team's projects (created on first write)",
  params: teamParams, response: projectPage,
});

export const listMembersOp = defineOperation({
  id: "listMembers", method: "GET", path: "/v1/teams/{team}/members", tag: "Identity", auth: "bearer",
  summary: "A team's members and roles (admins and members)",
  params: teamParams, response: memberPage,
});

export const addMemberOp = defineOperation({
  id: "addMember", method: "POST", path: "/v1/teams/{team}/members", tag: "Identity", auth: "bearer", status: 201,
  summary: "Add a user to a team, creating the user when an email is given (team admins)",
  params: teamParams, body: addMemberBody, response: addedMemberSchema,
});

export const updateMemberOp = defineOperation({
  id: "updateMember", method: "PATCH", path: "/v1/teams/{team}/members/{username}", tag: "Identity", auth: "bearer",
  summary: "Change a member's role (team admins)",
  params: memberParams, body: updateMemberBody, response: memberSchema,
});

export const removeMemberOp = defineOperation({
  id: "removeMember", method: "DELETE", path: "/v1/teams/{team}/members/{username}", tag: "Identity", auth: "bearer",
  summary: "Remove a member from a team (team admins)",
  params: memberParams, response: z.object({ removed: z.literal(true), username: z.string() }),
});

export const listApiKeysOp = defineOperation({
  id: "listApiKeys", method: "GET", path: "/v1/api-keys", tag: "API keys", auth: "bearer",
  summary: "The caller's API keys (never their secrets)",
  query: apiKeyListQuery, response: apiKeyPage,
});

export const createApiKeyOp = defineOperation({
  id: "createApiKey", method: "POST", path: "/v1/api-keys", tag: "API keys", auth: "bearer", status: 201,
  summary: "Create an API key; the secret is in this response only",
  body: createApiKeyBody, response: createdApiKeySchema,
});

export const revokeApiKeyOp = defineOperation({
  id: "revokeApiKey", method: "DELETE", path: "/v1/api-keys/{key_id}", tag: "API keys", auth: "bearer",
  summary: "Revoke one of the caller's API keys (idempotent)",
  params: apiKeyParams, response: apiKeySchema,
});
