import { Template } from "@huggingface/jinja";
import { describe, expect, it } from "vitest";
import { CHATML_TEMPLATE } from "./chatml-template";
import { MAX_RENDERED_CHARACTERS, MAX_TEMPLATE_LIST_ITEMS, MAX_TEMPLATE_TEXT_CHARACTERS, MAX_TEMPLATE_STEPS, renderTemplate } from "./render-template";

const messages = Array.from({ length: 50 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: `message ${i} `.repeat(20) }));

/** How renderTemplate ends `source`: its error's message and how long it took. */
function refusal(source: string, items: Record<string, unknown> = {}): { message: string; ms: number } {
  const started = performance.now();
  try {
    renderTemplate(new Template(source), items);
  } catch (error) {
    return { message: (error as Error).message, ms: performance.now() - started };
  }
  throw new Error("rendered");
}

describe("bounded chat template rendering", () => {
  it("renders exactly as @huggingface/jinja does, globals included", () => {
    const source = `${CHATML_TEMPLATE}{% for i in range(2, 11, 3) %}{{ i }}{% endfor %}{{ True and not none }}|{{ strftime_now('%Y') }}`;
    const items = { messages, add_generation_prompt: true };
    expect(renderTemplate(new Template(source), items)).toBe(new Template(source).render(items));
    expect(refusal("{{ raise_exception('no system message') }}").message).toBe("no system message");
  });

  it("stops a loop at the step limit, and renders a long conversation well within it", () => {
    const { message } = refusal("{% for i in range(100000) %}{% for j in range(100000) %}{{ j }}{% endfor %}{% endfor %}");
    expect(message).toBe(`chat_template rendering exceeded ${MAX_TEMPLATE_STEPS} evaluation steps.`);
    const long = Array.from({ length: 1000 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: `turn ${i}` }));
    expect(renderTemplate(new Template(CHATML_TEMPLATE), { messages: long })).toContain("turn 999");
  });

  it("refuses range() beyond its bound before building it", () => {
    const { message, ms } = refusal("{% for i in range(100000000) %}x{% endfor %}");
    expect(message).toBe(`chat_template called range() for more than ${MAX_TEMPLATE_LIST_ITEMS} items.`);
    expect(ms).toBeLessThan(1000); // refused before building anything (the loop would take minutes)
  });

  it("bounds every string, list and all text a template builds", () => {
    const doubling = (expression: string) => `{% set ns = namespace(v=${expression}) %}{% for i in range(64) %}{% set ns.v = ns.v + ns.v %}{% endfor %}`;
    expect(refusal(doubling("'x'")).message).toBe(`chat_template rendering built a text of more than ${MAX_RENDERED_CHARACTERS} characters.`);
    expect(refusal(doubling("[1]")).message).toBe(`chat_template rendering built a list of more than ${MAX_TEMPLATE_LIST_ITEMS} items.`);
    const big = "a".repeat(MAX_RENDERED_CHARACTERS / 2);
    // Each `~` builds a 2 MiB text (cheaply, so the step limit is far): 32 of them pass the total.
    expect(refusal("{% for i in range(1000) %}{% set copy = big ~ i %}{% endfor %}", { big }).message).toBe(
      `chat_template rendering built more than ${MAX_TEMPLATE_TEXT_CHARACTERS} characters of text in all.`,
    );
    expect(refusal("{{ big }}{{ big }}{{ big }}", { big }).message).toBe(`chat_template rendering built a text of more than ${MAX_RENDERED_CHARACTERS} characters.`);
  });
});
