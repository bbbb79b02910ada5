"use client";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/lib/client/api-fetch";

/** A failed load, with the API's message and a retry. */
export function QueryError({ error, retry, what }: { error: unknown; retry?: () => void; what: string }) {
  return (
    <div className="p-4">
      <Alert
        title={`Could not load ${what}`}
        action={
          retry && (
            <Button variant="secondary" size="sm" onClick={retry}>
              Retry
            </Button>
          )
        }
      >
        {errorMessage(error)}
      </Alert>
    </div>
  );
}
