"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { LaunchActions } from "@/components/jobs/launch-actions";
import { launchErrors } from "@/components/jobs/launch-errors";
import { useLaunchSftFromFile } from "@/components/jobs/queries";
import { readSftConfig, SFT_CONFIG_FIELDS, SftConfigFields, type ChosenExamples } from "@/components/jobs/sft-config-fields";
import type { TrainedModel } from "@/components/models/queries";
import { INPUT_CLASS } from "@/components/ui/field";
import { countJsonlLines, firstJsonlExample, jsonlCharacters } from "@/lib/client/sft-plan";

const SHOWN = [...SFT_CONFIG_FIELDS, "file"];

/** SFT from a JSONL file: uploaded into the model's team (POST /v1/files), then trained on. */
export function SftUploadForm({ model }: { model: TrainedModel }) {
  const router = useRouter();
  const launch = useLaunchSftFromFile();
  const [local, setLocal] = useState<Record<string, string>>({});
  const [chosen, setChosen] = useState<ChosenExamples | undefined>();
  const { fields, form } = launchErrors(launch.error, SHOWN);
  const errors = { ...fields, ...local };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const file = data.get("file");
    const { config, errors: invalid } = readSftConfig(data);
    if (!(file instanceof File) || file.size === 0) invalid.file = file instanceof File && file.name ? "The file is empty." : "Choose a .jsonl file.";
    setLocal(invalid);
    if (Object.keys(invalid).length) return;
    launch.mutate({ file: file as File, team: model.entity, model_id: model.id, config }, { onSuccess: (job) => router.push(`/jobs/${job.id}`) });
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate aria-label="SFT from a JSONL file">
      <div>
        <label htmlFor="sft-file" className="mb-1.5 block text-sm font-medium text-zinc-800">
          Training data (JSONL)
        </label>
        <input
          id="sft-file"
          name="file"
          type="file"
          accept=".jsonl,.json,application/jsonl,text/plain"
          className={`${INPUT_CLASS} file:mr-3 file:rounded file:border-0 file:bg-zinc-100 file:px-2 file:py-1 file:text-xs file:font-medium`}
          aria-invalid={errors.file ? true : undefined}
          aria-describedby="sft-file-hint"
          onChange={(e) => {
            const file = e.target.files?.[0];
            // Read in the browser only to count the examples and preview the first; the server parses it.
            if (!file) return setChosen(undefined);
            void file.text().then((text) => setChosen({ count: countJsonlLines(text), first: firstJsonlExample(text), characters: jsonlCharacters(text) }));
          }}
        />
        <p id="sft-file-hint" className={`mt-1 text-xs ${errors.file ? "text-red-600" : "text-zinc-500"}`}>
          {errors.file ?? (
            <>
              One <code className="font-mono">{'{"messages": [...]}'}</code> per line, each ending with the assistant’s turn.
            </>
          )}
        </p>
      </div>
      <SftConfigFields model={model} errors={errors} examples={chosen} />
      <LaunchActions error={form} label="Start training" pending={launch.isPending} pendingLabel="Uploading…" />
    </form>
  );
}
