"use client";

import { useMemo, useState } from "react";
import type { ColumnIndex } from "@/components/playground/columns";
import { DEFAULT_SETTINGS, settingsErrorsFromApi, validateSettings, type RunSettings, type SettingsErrors } from "@/components/playground/run-settings";

// Each column's model and parameters, the column being edited, and their validation: what the
// form shows under each field (its own checks, then what the API refused), and whether a run was
// refused for them.

/** `initialModel` starts both columns on it; `initialCompare` puts column B on that model with
 *  A's parameters (otherwise B differs by a hotter temperature, something to compare). */
function initialSettings(initialModel: string, initialCompare: string | undefined): [RunSettings, RunSettings] {
  return [
    { ...DEFAULT_SETTINGS, model: initialModel },
    initialCompare === undefined ? { ...DEFAULT_SETTINGS, model: initialModel, temperature: "1.2" } : { ...DEFAULT_SETTINGS, model: initialCompare },
  ];
}

export function useColumnSettings(initialModel: string, initialCompare: string | undefined) {
  const [settings, setSettings] = useState(() => initialSettings(initialModel, initialCompare));
  const [editing, setEditing] = useState<ColumnIndex>(0);
  /** A run was refused for invalid parameters (cleared by the next run that goes out). */
  const [refused, setRefused] = useState(false);
  const errors: [SettingsErrors, SettingsErrors] = useMemo(() => [validateSettings(settings[0]), validateSettings(settings[1])], [settings]);
  const hasErrors = (i: ColumnIndex) => Object.keys(errors[i]).length > 0;

  /** Refuses a run while one of `columns` is invalid: the first such column opens, and the
   *  composer says why until a run goes out. */
  function refuseInvalid(columns: readonly ColumnIndex[]): boolean {
    const bad = columns.find(hasErrors);
    if (bad === undefined) return false;
    setRefused(true);
    setEditing(bad);
    return true;
  }
  const runSent = () => setRefused(false);

  const changeEdited = (next: RunSettings) => setSettings((s) => (editing === 0 ? [next, s[1]] : [s[0], next]));
  const copyEditedToOther = () => setSettings((s) => (editing === 0 ? [s[0], { ...s[0] }] : [{ ...s[1] }, s[1]]));

  /** A column's field messages: the API's for its last run, overridden by the form's own. */
  const fieldErrors = (i: ColumnIndex, apiErrors: Record<string, string> | undefined): SettingsErrors => ({ ...settingsErrorsFromApi(apiErrors), ...errors[i] });

  return { settings, editing, setEditing, refused, hasErrors, refuseInvalid, runSent, changeEdited, copyEditedToOther, fieldErrors };
}
