"use client";

import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { identityKeys, type Me, type Workspace } from "@/components/identity/queries";
import { ApiError } from "@/lib/client/api-fetch";

// One QueryClient per browser tab. The server layout already read the caller and their workspace,
// so those two queries start filled (no spinner in the shell on first paint). A 401 from any call
// means the session is gone: back to the sign-in page, returning here afterwards.

function onApiError(error: unknown) {
  if (error instanceof ApiError && error.status === 401 && typeof window !== "undefined") {
    const back = window.location.pathname + window.location.search;
    window.location.assign(`/login?callbackUrl=${encodeURIComponent(back)}`);
  }
}

function makeClient(me: Me, workspace: Workspace) {
  const client = new QueryClient({
    queryCache: new QueryCache({ onError: onApiError }),
    mutationCache: new MutationCache({ onError: onApiError }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: true,
        // 4xx answers are definite; retry only network trouble and 5xx.
        retry: (count, error) => count < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      },
    },
  });
  client.setQueryData(identityKeys.me(), me);
  client.setQueryData(identityKeys.workspace(), workspace);
  return client;
}

export function ConsoleProviders({ me, workspace, children }: { me: Me; workspace: Workspace; children: ReactNode }) {
  const [client] = useState(() => makeClient(me, workspace));
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
