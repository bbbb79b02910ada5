import type { Metadata } from "next";
import { JobMonitor } from "@/components/jobs/job-monitor";
import { requireTeamArea } from "@/lib/auth/console-session";

export const metadata: Metadata = { title: "Job" };
export const dynamic = "force-dynamic";

export default async function JobPage({ params }: { params: Promise<{ job_id: string }> }) {
  await requireTeamArea();
  const { job_id } = await params;
  // Keyed by job: its event feed starts from nothing for another job.
  return <JobMonitor key={job_id} jobId={job_id} />;
}
