"use client";

import { KeyRound } from "lucide-react";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { CheckboxLabel } from "@/components/ui/field";
import { LoadMoreFooter } from "@/components/ui/load-more-footer";
import { Panel } from "@/components/ui/panel";
import { QueryError } from "@/components/ui/query-error";
import { RelativeTime } from "@/components/ui/relative-time";
import { TableSkeleton } from "@/components/ui/skeleton";
import { Table, Td, Th, ThActions, THead, Tr } from "@/components/ui/table";
import { CreateApiKeyDialog } from "@/components/api-keys/create-api-key-dialog";
import { RevokeApiKeyDialog } from "@/components/api-keys/revoke-api-key-dialog";
import { useApiKeys, type ApiKey } from "@/components/identity/queries";
import { KeyName, KeyPrefix, KeyRevocation } from "@/components/keys/key-cells";

function KeyRow({ apiKey }: { apiKey: ApiKey }) {
  const revoked = apiKey.revoked_at !== null;
  return (
    <Tr className={revoked ? "text-zinc-400" : ""}>
      <Td className="font-medium text-zinc-900">
        <KeyName name={apiKey.name} revoked={revoked} />
      </Td>
      <Td>
        <KeyPrefix prefix={apiKey.prefix} />
      </Td>
      <Td>{apiKey.team ? <Badge tone="blue">{apiKey.team}</Badge> : <span className="text-zinc-500">All my teams</span>}</Td>
      <Td className="text-zinc-500">
        <RelativeTime iso={apiKey.created_at} />
      </Td>
      <Td className="text-zinc-500">
        <RelativeTime iso={apiKey.last_used_at} fallback="Never" />
      </Td>
      <Td className="text-right">
        <KeyRevocation revokedAt={apiKey.revoked_at} revoke={<RevokeApiKeyDialog apiKey={apiKey} />} />
      </Td>
    </Tr>
  );
}

function EmptyKeys({ origin }: { origin: string }) {
  return (
    <EmptyState icon={KeyRound} title="No API keys yet" action={<CreateApiKeyDialog origin={origin} />}>
      Create a key for each program or person that calls {origin}/v1: it acts with your role in your teams.
    </EmptyState>
  );
}

export function ApiKeysPanel({ origin }: { origin: string }) {
  const [includeRevoked, setIncludeRevoked] = useState(false);
  const keys = useApiKeys({ includeRevoked });

  return (
    <div className="space-y-5">
      <div className="flex items-start justify-between gap-6">
        <p className="max-w-2xl text-sm text-zinc-500">
          Keys let programs call the API as you, with your role in each team: send{" "}
          <code className="font-mono text-xs text-zinc-700">Authorization: Bearer &lt;key&gt;</code>, or Basic auth{" "}
          <code className="font-mono text-xs text-zinc-700">api:&lt;key&gt;</code> on feedback and annotation routes.
        </p>
        <CreateApiKeyDialog origin={origin} />
      </div>
      <Panel
        title="Your API keys"
        actions={<CheckboxLabel label="Show revoked" checked={includeRevoked} onChange={setIncludeRevoked} />}
      >
        {keys.isPending ? (
          <TableSkeleton label="Loading API keys" />
        ) : keys.isError ? (
          <QueryError what="your API keys" error={keys.error} retry={() => void keys.refetch()} />
        ) : keys.data.length === 0 ? (
          <EmptyKeys origin={origin} />
        ) : (
          <>
            <Table label="API keys">
              <THead>
                <Th>Name</Th>
                <Th>Key</Th>
                <Th>Scope</Th>
                <Th>Created</Th>
                <Th>Last used</Th>
                <ThActions />
              </THead>
              <tbody>
                {keys.data.map((key) => (
                  <KeyRow key={key.id} apiKey={key} />
                ))}
              </tbody>
            </Table>
            <LoadMoreFooter pages={keys} />
          </>
        )}
      </Panel>
    </div>
  );
}
