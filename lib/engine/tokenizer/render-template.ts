import { Environment, Interpreter, type Template } from "@huggingface/jinja";

// A chat template rendered within bounds. A request may bring its own template, and rendering is
// synchronous on the engine thread, where it holds up every other generation: unbounded,
// `{% for i in range(100000000) %}` ran the thread out of memory after 87 s. The interpreter here
// is @huggingface/jinja's own, checking its budget at every node it evaluates: a number of
// evaluation steps, a size limit on every string and list a template builds, and on all the text it
// produces. Steps, not milliseconds: a time limit refused ordinary prompts on a loaded machine (and
// failed training jobs that render through it), while a step count gives every request the same
// answer; with the text bounds it still caps the thread's time (~7 µs a step here: ~0.35 s).
// Training renders through it too (chat-template.ts), so both render exactly alike.

/** ChatML takes ~32 steps a message (1,612 for 50 messages). */
export const MAX_TEMPLATE_STEPS = 50_000;
/** Any one text built while rendering, the rendered prompt included. */
export const MAX_RENDERED_CHARACTERS = 4 * 1024 * 1024;
/** range() and any list built on the way. */
export const MAX_TEMPLATE_LIST_ITEMS = 100_000;
/** All text built while rendering (copies included): bounds memory where time alone would not. */
export const MAX_TEMPLATE_TEXT_CHARACTERS = 64 * 1024 * 1024;

/** A template went over one of the bounds; the message says which. */
export class TemplateBoundError extends Error {}

// Nodes that hand back a value that already exists (a variable, a member) rather than build one.
const LOOKUPS = new Set(["Identifier", "MemberExpression", "StringLiteral"]);

class BoundedInterpreter extends Interpreter {
  private steps = 0;
  private textCharacters = 0;

  override evaluate(...[statement, environment]: Parameters<Interpreter["evaluate"]>): ReturnType<Interpreter["evaluate"]> {
    if (++this.steps > MAX_TEMPLATE_STEPS) throw new TemplateBoundError(`chat_template rendering exceeded ${MAX_TEMPLATE_STEPS} evaluation steps.`);
    const value = super.evaluate(statement, environment);
    const built = value.value;
    if (typeof built === "string" && statement && !LOOKUPS.has(statement.type)) {
      if (built.length > MAX_RENDERED_CHARACTERS) throw new TemplateBoundError(`chat_template rendering built a text of more than ${MAX_RENDERED_CHARACTERS} characters.`);
      this.textCharacters += built.length;
      if (this.textCharacters > MAX_TEMPLATE_TEXT_CHARACTERS) {
        throw new TemplateBoundError(`chat_template rendering built more than ${MAX_TEMPLATE_TEXT_CHARACTERS} characters of text in all.`);
      }
    } else if (Array.isArray(built) && built.length > MAX_TEMPLATE_LIST_ITEMS) {
      throw new TemplateBoundError(`chat_template rendering built a list of more than ${MAX_TEMPLATE_LIST_ITEMS} items.`);
    }
    return value;
  }
}

/** Python's range(), refusing more than MAX_TEMPLATE_LIST_ITEMS items before building any. */
function range(start: number, stop?: number, step = 1): number[] {
  if (stop === undefined) [start, stop] = [0, start];
  if (step === 0) throw new Error("range() step must not be zero");
  const count = Math.max(0, Math.ceil((stop - start) / step));
  if (count > MAX_TEMPLATE_LIST_ITEMS) throw new TemplateBoundError(`chat_template called range() for more than ${MAX_TEMPLATE_LIST_ITEMS} items.`);
  return Array.from({ length: count }, (_, i) => start + i * step);
}

/** strftime_now(format) as chat templates use it (Llama 3's "Today Date"): the formats HF's jinja knows. */
function strftimeNow(format: string): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, "0");
  const month = (style: "long" | "short") => new Intl.DateTimeFormat("en-US", { month: style }).format(now);
  const fields: Record<string, () => string> = {
    "%Y": () => String(now.getFullYear()),
    "%m": () => pad(now.getMonth() + 1),
    "%d": () => pad(now.getDate()),
    "%b": () => month("short"),
    "%B": () => month("long"),
    "%H": () => pad(now.getHours()),
    "%M": () => pad(now.getMinutes()),
    "%%": () => "%",
  };
  return format.replace(/%[YmdbBHM%]/g, (token) => fields[token]());
}

/** Template.render's environment (the globals templates rely on), with the bounded range(). */
function environment(items: Record<string, unknown>): Environment {
  const env = new Environment();
  const globals: Record<string, unknown> = {
    true: true, false: false, none: null, True: true, False: false, None: null,
    raise_exception: (message: string) => {
      throw new Error(message);
    },
    range,
    strftime_now: strftimeNow,
  };
  for (const [name, value] of Object.entries({ ...globals, ...items })) env.set(name, value);
  return env;
}

/** Renders `template` with `items`, or throws TemplateBoundError naming the bound it went over. */
export function renderTemplate(template: Template, items: Record<string, unknown>): string {
  return new BoundedInterpreter(environment(items)).run(template.parsed).value as string;
}
