"use client";

import { Collapsible, isLong } from "@/components/calls/collapsible";

// A message's content made readable, and never interpreted as HTML: every piece is a React text
// child, which the browser shows as text whatever it contains. Fenced code blocks become code,
// content that is JSON is pretty-printed, content parts are shown one by one, long text folds.

/** The text of a JSON value pretty-printed, when `text` is a JSON object or array. */
function prettyJson(text: string): string | null {
  const trimmed = text.trim();
  if (!(trimmed.startsWith("{") && trimmed.endsWith("}")) && !(trimmed.startsWith("[") && trimmed.endsWith("]"))) return null;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return null;
  }
}

export function CodeBlock({ code, language }: { code: string; language?: string }) {
  return (
    <div className="overflow-hidden rounded-md border border-zinc-200 bg-zinc-50">
      {language && <div className="border-b border-zinc-200 px-3 py-1 font-mono text-[10px] tracking-wide text-zinc-500 uppercase">{language}</div>}
      <pre className="overflow-x-auto px-3 py-2 font-mono text-[12px] leading-5 text-zinc-800">
        <code>{code}</code>
      </pre>
    </div>
  );
}

/** Any JSON value, pretty-printed. */
export function JsonBlock({ value }: { value: unknown }) {
  const text = JSON.stringify(value, null, 2) ?? String(value);
  return (
    <Collapsible long={isLong(text)} label="the JSON">
      <CodeBlock code={text} language="json" />
    </Collapsible>
  );
}

const FENCE = /```([^\n`]*)\n([\s\S]*?)```/g;

type Segment = { kind: "text"; text: string } | { kind: "code"; code: string; language: string };

/** Text split at fenced code blocks (an unclosed fence stays text). */
export function segments(text: string): Segment[] {
  const out: Segment[] = [];
  let last = 0;
  for (const match of text.matchAll(FENCE)) {
    if (match.index > last) out.push({ kind: "text", text: text.slice(last, match.index) });
    out.push({ kind: "code", code: match[2].replace(/\n$/, ""), language: match[1].trim() });
    last = match.index + match[0].length;
  }
  if (last < text.length) out.push({ kind: "text", text: text.slice(last) });
  return out;
}

/** Prose with code blocks, or pretty JSON when the whole text is JSON. */
export function RichText({ text }: { text: string }) {
  const json = prettyJson(text);
  const body = json ? (
    <CodeBlock code={json} language="json" />
  ) : (
    <div className="space-y-2">
      {segments(text).map((segment, i) =>
        segment.kind === "code" ? (
          <CodeBlock key={i} code={segment.code} language={segment.language || undefined} />
        ) : (
          <p key={i} className="text-sm leading-6 break-words whitespace-pre-wrap text-zinc-800">
            {segment.text.replace(/^\n+|\n+$/g, "")}
          </p>
        ),
      )}
    </div>
  );
  return (
    <Collapsible long={isLong(text)} label="the text">
      {body}
    </Collapsible>
  );
}

function ContentPart({ part }: { part: unknown }) {
  const value = part as { type?: unknown; text?: unknown; image_url?: { url?: unknown } } | null;
  if (value && value.type === "text" && typeof value.text === "string") return <RichText text={value.text} />;
  if (value && value.type === "image_url" && typeof value.image_url?.url === "string") {
    const url = value.image_url.url;
    return <p className="font-mono text-xs break-all text-zinc-500">[image] {url.length > 120 ? `${url.slice(0, 120)}…` : url}</p>;
  }
  return <JsonBlock value={part} />;
}

/** A message's `content`: text, a list of parts, or anything else as JSON. */
export function MessageContent({ content }: { content: unknown }) {
  if (content === null || content === undefined || content === "") return <p className="text-sm text-zinc-400 italic">(no content)</p>;
  if (typeof content === "string") return <RichText text={content} />;
  if (Array.isArray(content)) {
    return (
      <div className="space-y-2">
        {content.map((part, i) => (
          <ContentPart key={i} part={part} />
        ))}
      </div>
    );
  }
  return <JsonBlock value={content} />;
}
