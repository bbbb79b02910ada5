"use client";

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type {
  addMemberBody,
  addedMemberSchema,
  apiKeyPage,
  apiKeySchema,
  changePasswordBody,
  createApiKeyBody,
  createdApiKeySchema,
  meSchema,
  memberPage,
  memberSchema,
  projectPage,
  roleSchema,
  setWorkspaceBody,
  teamPage,
  teamSchema,
  workspaceSchema,
} from "@/lib/auth/schemas";
import { apiFetch } from "@/lib/client/api-fetch";

// The identity domain's data for the console: one query-key factory, and one hook per API call.
// Shapes are the API's own zod schemas (lib/auth/schemas.ts), imported as types only.

export type Me = z.infer<typeof meSchema>;
export type Workspace = z.infer<typeof workspaceSchema>;
export type Role = z.infer<typeof roleSchema>;
export type Team = z.infer<typeof teamSchema>;
export type Member = z.infer<typeof memberSchema>;
export type ApiKey = z.infer<typeof apiKeySchema>;
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;
export type AddedMember = z.infer<typeof addedMemberSchema>;
type Input<S extends z.ZodType> = z.input<S>;

export const identityKeys = {
  all: ["identity"] as const,
  me: () => [...identityKeys.all, "me"] as const,
  workspace: () => [...identityKeys.all, "workspace"] as const,
  teams: () => [...identityKeys.all, "teams"] as const,
  projects: (team: string) => [...identityKeys.all, "teams", team, "projects"] as const,
  members: (team: string) => [...identityKeys.all, "teams", team, "members"] as const,
  apiKeys: (options: { includeRevoked: boolean }) => [...identityKeys.all, "api-keys", options] as const,
  apiKeysAll: () => [...identityKeys.all, "api-keys"] as const,
};

const segment = encodeURIComponent;

export function useMe() {
  return useQuery({ queryKey: identityKeys.me(), queryFn: ({ signal }) => apiFetch<Me>("/v1/me", { signal }) });
}

export function useWorkspace() {
  return useQuery({
    queryKey: identityKeys.workspace(),
    queryFn: ({ signal }) => apiFetch<Workspace>("/v1/me/workspace", { signal }),
  });
}

export function useSetWorkspace() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Input<typeof setWorkspaceBody>) => apiFetch<Workspace>("/v1/me/workspace", { method: "PUT", body }),
    onSuccess: (workspace) => client.setQueryData(identityKeys.workspace(), workspace),
  });
}

export function useTeams() {
  return useQuery({
    queryKey: identityKeys.teams(),
    queryFn: ({ signal }) => apiFetch<z.infer<typeof teamPage>>("/v1/teams", { signal }),
    select: (page) => page.data,
  });
}

export function useCreateTeam() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => apiFetch<Team>("/v1/teams", { method: "POST", body: { name } }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: identityKeys.teams() });
      void client.invalidateQueries({ queryKey: identityKeys.me() });
    },
  });
}

export function useProjects(team: string | undefined) {
  return useQuery({
    queryKey: identityKeys.projects(team ?? ""),
    queryFn: ({ signal }) => apiFetch<z.infer<typeof projectPage>>(`/v1/teams/${segment(team!)}/projects`, { signal }),
    select: (page) => page.data,
    enabled: Boolean(team),
  });
}

export function useMembers(team: string | undefined, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: identityKeys.members(team ?? ""),
    queryFn: ({ signal }) => apiFetch<z.infer<typeof memberPage>>(`/v1/teams/${segment(team!)}/members`, { signal }),
    select: (page) => page.data,
    enabled: Boolean(team) && (options.enabled ?? true),
  });
}

export function useAddMember(team: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Input<typeof addMemberBody>) =>
      apiFetch<AddedMember>(`/v1/teams/${segment(team)}/members`, { method: "POST", body }),
    onSuccess: () => client.invalidateQueries({ queryKey: identityKeys.members(team) }),
  });
}

export function useUpdateMemberRole(team: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ username, role }: { username: string; role: Role }) =>
      apiFetch<Member>(`/v1/teams/${segment(team)}/members/${segment(username)}`, { method: "PATCH", body: { role } }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: identityKeys.members(team) });
      void client.invalidateQueries({ queryKey: identityKeys.teams() });
      void client.invalidateQueries({ queryKey: identityKeys.workspace() });
    },
  });
}

export function useRemoveMember(team: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (username: string) =>
      apiFetch<{ removed: true; username: string }>(`/v1/teams/${segment(team)}/members/${segment(username)}`, { method: "DELETE" }),
    onSuccess: () => client.invalidateQueries({ queryKey: identityKeys.members(team) }),
  });
}

const API_KEY_PAGE_SIZE = 50;

export function useApiKeys(options: { includeRevoked: boolean }) {
  return useInfiniteQuery({
    queryKey: identityKeys.apiKeys(options),
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: String(API_KEY_PAGE_SIZE), order: "desc", include_revoked: String(options.includeRevoked) });
      if (pageParam) query.set("after", pageParam);
      return apiFetch<z.infer<typeof apiKeyPage>>(`/v1/api-keys?${query}`, { signal });
    },
    initialPageParam: "",
    getNextPageParam: (page) => (page.has_more ? page.last_id : undefined),
    select: (data) => data.pages.flatMap((page) => page.data),
  });
}

export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Input<typeof createApiKeyBody>) => apiFetch<CreatedApiKey>("/v1/api-keys", { method: "POST", body }),
    onSuccess: () => client.invalidateQueries({ queryKey: identityKeys.apiKeysAll() }),
  });
}

export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<ApiKey>(`/v1/api-keys/${segment(id)}`, { method: "DELETE" }),
    onSuccess: () => client.invalidateQueries({ queryKey: identityKeys.apiKeysAll() }),
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: Input<typeof changePasswordBody>) => apiFetch<object>("/v1/me/password", { method: "PUT", body }),
  });
}
