"use client";

import { ArrowLeft, ArrowRight, Keyboard, SkipForward, Undo2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { clearDraft, readDraft, writeDraft, type DraftKey } from "@/components/annotate/draft-storage";
import { initialForm, isPreference, toSubmission, valueForDigit, type FieldValue, type FormState } from "@/lib/client/annotation-form";
import { answerChoices } from "@/components/annotate/answer-choices";
import { Instructions } from "@/components/annotate/instructions";
import { ReviewNote } from "@/components/annotate/review-note";
import { ItemCall } from "@/components/annotate/item-call";
import { useReleaseItem, useSkipItem, useSubmitItem, type ItemWithCall, type QueueDto } from "@/components/annotate/queries";
import { ShortcutsDialog } from "@/components/annotate/shortcuts-dialog";
import { SkipDialog } from "@/components/annotate/skip-dialog";
import { fieldDomId, inputDomId, SpecField } from "@/components/annotate/spec-field";
import { useAnnotateShortcuts } from "@/components/annotate/use-annotate-shortcuts";
import { Kbd, modifierKey } from "@/components/playground/kbd";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { INPUT_CLASS } from "@/components/ui/field";
import { errorMessage } from "@/lib/client/api-fetch";

// One item on the annotation screen: the call on the left; the instructions, the form (a field per
// spec of the queue, then an optional note) and the actions on the right. The form is kept as a
// draft while it changes and submitted with Submit & next; an item one already submitted (reached
// with Back) opens with one's values, and submitting it again replaces them. Release gives the
// claimed item back to the pool (the draft stays) and leaves for the queue list.

export interface ItemScreenProps {
  queue: QueueDto;
  data: ItemWithCall;
  userId: string;
  /** A submitted item revisited with Back (it cannot be skipped any more). */
  revisiting: boolean;
  /** Another item is being fetched: the actions wait. */
  busy: boolean;
  onDone: () => void;
  onPreviousItem?: () => void;
  onNextItem?: () => void;
}

const NOTE_ID = "annotate-note";

export function ItemScreen({ queue, data, userId, revisiting, busy, onDone, onPreviousItem, onNextItem }: ItemScreenProps) {
  const specs = queue.specs;
  const draftKey: DraftKey = { userId, queueId: queue.id, itemId: data.item.id };
  const answer = typeof data.call.output?.content === "string" ? data.call.output.content : "";
  const [form, setForm] = useState<FormState>(() => readDraft(draftKey) ?? initialForm(specs, data.mine, answer));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [active, setActive] = useState(0);
  const [instructionsOpen, setInstructionsOpen] = useState(true);
  const [skipping, setSkipping] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const submit = useSubmitItem(queue.id);
  const skip = useSkipItem(queue.id);
  const release = useReleaseItem(queue.id);
  const router = useRouter();
  const pending = busy || submit.isPending || skip.isPending || release.isPending;
  // The fields j/k move through: the specs, then the note.
  const fieldCount = specs.length + 1;
  const choiceCount = answerChoices(data.call).length;
  // The preference the answers are marked with: the active field's, else the first one's.
  const preferenceSpec = specs[active]?.type === "preferred_choice" ? specs[active] : specs.find((spec) => spec.type === "preferred_choice");
  const preference = preferenceSpec ? form.values[preferenceSpec.name] : undefined;

  const update = (next: FormState) => {
    setForm(next);
    writeDraft(draftKey, next);
  };
  const setValue = (name: string, value: FieldValue) => {
    update({ ...form, values: { ...form.values, [name]: value } });
    setErrors(({ [name]: _, ...rest }) => rest);
  };
  const focusField = (index: number) => {
    setActive(index);
    const element = document.getElementById(index < specs.length ? fieldDomId(specs[index]) : NOTE_ID);
    element?.focus({ preventScroll: true });
    element?.scrollIntoView({ block: "nearest" });
  };

  const doSubmit = () => {
    if (pending) return;
    const result = toSubmission(specs, form);
    if ("errors" in result) {
      setErrors(result.errors);
      focusField(specs.findIndex((spec) => result.errors[spec.name]));
      return;
    }
    submit.mutate(
      { itemId: data.item.id, values: result.values, note: form.note.trim() || undefined },
      {
        onSuccess: () => {
          clearDraft(draftKey);
          onDone();
        },
      },
    );
  };
  const doSkip = (reason: string | undefined) =>
    skip.mutate(
      { itemId: data.item.id, reason },
      {
        onSuccess: () => {
          clearDraft(draftKey);
          setSkipping(false);
          onDone();
        },
      },
    );

  const doRelease = () => {
    if (revisiting || pending) return;
    release.mutate({ itemId: data.item.id }, { onSuccess: () => router.push("/annotate") });
  };

  // A new item (this screen is keyed by item) starts at its first field: the keyboard's place,
  // announced to screen readers. Once: a refetch must not pull focus out of a text being typed.
  const firstField = fieldDomId(specs[0]);
  useEffect(() => {
    document.getElementById(firstField)?.focus({ preventScroll: true });
  }, [firstField]);

  useAnnotateShortcuts(
    {
      submit: doSubmit,
      skip: () => !revisiting && !pending && setSkipping(true),
      release: doRelease,
      help: () => setHelpOpen(true),
      nextField: () => focusField(Math.min(active + 1, fieldCount - 1)),
      previousField: () => focusField(Math.max(active - 1, 0)),
      editField: () => document.getElementById(active < specs.length ? inputDomId(specs[active]) : `${NOTE_ID}-input`)?.focus(),
      digit: (n) => {
        const spec = specs[active];
        if (!spec) return;
        const value = valueForDigit(spec, n, { current: form.values[spec.name], choiceCount });
        if (value !== undefined) setValue(spec.name, value);
      },
      previousItem: () => !pending && onPreviousItem?.(),
      nextItem: () => !pending && onNextItem?.(),
      toggleInstructions: () => setInstructionsOpen((open) => !open),
    },
  );

  const mod = modifierKey();
  return (
    <div className="grid items-start gap-5 lg:grid-cols-[minmax(0,1fr)_26rem]">
      <ItemCall data={data} preference={isPreference(preference) ? preference : undefined} />
      <div className="space-y-4 lg:sticky lg:top-4">
        <Instructions text={queue.instructions} open={instructionsOpen} onToggle={() => setInstructionsOpen((open) => !open)} />
        <ReviewNote item={data.item} />
        <form
          aria-label="Annotation"
          onSubmit={(event) => {
            event.preventDefault();
            doSubmit();
          }}
          className="space-y-1 rounded-xl border border-zinc-200 bg-white p-2 shadow-xs"
        >
          {revisiting && (
            <p className="px-3 pt-2 text-xs text-zinc-500" data-testid="revisiting">
              You submitted this item. Submitting again replaces your annotations.
            </p>
          )}
          {specs.map((spec, i) => (
            <SpecField key={spec.name} spec={spec} value={form.values[spec.name]} error={errors[spec.name]} active={active === i} choiceCount={choiceCount} onChange={(value) => setValue(spec.name, value)} onActivate={() => setActive(i)} />
          ))}
          <div
            id={NOTE_ID}
            tabIndex={-1}
            data-active={active === specs.length || undefined}
            onFocusCapture={() => setActive(specs.length)}
            className={`space-y-1.5 rounded-lg border px-3 py-2.5 outline-none ${active === specs.length ? "border-brand-300 bg-brand-50/40 ring-2 ring-brand-500/20" : "border-transparent"}`}
          >
            <label htmlFor={`${NOTE_ID}-input`} className="block text-sm font-medium text-zinc-800">
              Note <span className="text-xs font-normal text-zinc-400">optional</span>
            </label>
            <textarea id={`${NOTE_ID}-input`} rows={2} maxLength={4096} value={form.note} onChange={(e) => update({ ...form, note: e.target.value })} className={INPUT_CLASS} />
          </div>
          {(submit.isError || skip.isError || release.isError) && !skipping && (
            <div className="px-1">
              <Alert title={release.isError ? "Not released" : "Not saved"}>{errorMessage(submit.error ?? skip.error ?? release.error)}</Alert>
            </div>
          )}
          <div className="flex flex-wrap items-center gap-2 border-t border-zinc-100 px-2 pt-3 pb-1">
            <Button type="submit" disabled={pending} aria-keyshortcuts="Control+Enter Meta+Enter">
              {submit.isPending ? "Saving…" : revisiting ? "Resubmit" : "Submit & next"}
              <Kbd>{mod}↵</Kbd>
            </Button>
            {!revisiting && (
              <Button variant="secondary" disabled={pending} onClick={() => setSkipping(true)} aria-keyshortcuts="s">
                <SkipForward aria-hidden />
                Skip
              </Button>
            )}
            {!revisiting && (
              <Button variant="ghost" disabled={pending} onClick={doRelease} aria-keyshortcuts="r" title="Give this item back to the queue and go to your queues">
                <Undo2 aria-hidden />
                {release.isPending ? "Releasing…" : "Release"}
              </Button>
            )}
            <span className="ml-auto flex gap-1">
              <Button variant="ghost" size="icon" disabled={!onPreviousItem || pending} onClick={onPreviousItem} aria-label="Back to your previous item" aria-keyshortcuts="ArrowLeft">
                <ArrowLeft aria-hidden />
              </Button>
              <Button variant="ghost" size="icon" disabled={!onNextItem || pending} onClick={onNextItem} aria-label="Forward" aria-keyshortcuts="ArrowRight">
                <ArrowRight aria-hidden />
              </Button>
              <Button variant="ghost" size="icon" onClick={() => setHelpOpen(true)} aria-label="Keyboard shortcuts" aria-keyshortcuts="?">
                <Keyboard aria-hidden />
              </Button>
            </span>
          </div>
        </form>
      </div>
      <SkipDialog open={skipping} onOpenChange={setSkipping} pending={skip.isPending} error={skip.error} onSkip={doSkip} />
      <ShortcutsDialog open={helpOpen} onOpenChange={setHelpOpen} />
    </div>
  );
}
