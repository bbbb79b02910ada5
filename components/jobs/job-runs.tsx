import type { Job } from "@/components/jobs/queries";
import { Panel } from "@/components/ui/panel";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";

/** Which worker ran each attempt of a job, and the gradient step a retry resumed from: how an
 *  operator reads a failover (shown once a job was claimed more than once). */
export function JobRuns({ runs }: { runs: Job["runs"] }) {
  return (
    <Panel title="Attempts" description="A retried attempt resumes from the job's last saved state; the steps before it are not redone.">
      <Table label="Attempts">
        <THead>
          <Th>Attempt</Th>
          <Th>Worker</Th>
          <Th>Resumed from</Th>
          <Th>Started</Th>
        </THead>
        <tbody>
          {runs.map((run) => (
            <Tr key={`${run.attempt}-${run.started_at}`}>
              <Td className="tabular-nums">{run.attempt}</Td>
              <Td className="font-mono text-xs">
                {run.hostname} (pid {run.pid})
              </Td>
              <Td className="tabular-nums">{run.resumed_from_step === 0 ? "the start" : `step ${run.resumed_from_step}`}</Td>
              <Td>
                <RelativeTime iso={run.started_at} />
              </Td>
            </Tr>
          ))}
        </tbody>
      </Table>
    </Panel>
  );
}
