import { NAME_PATTERN } from "@/lib/auth/names";

// Refs name what feedback is about: `svc:///<team>/<project>/(object|op|call)/...`. W&B Weave's
// clients write the same refs as `weave:///...`; both are accepted and stored as `svc:///...`, the
// one canonical form queries and joins compare against.

export const REF_SCHEMES = ["svc:///", "weave:///"] as const;
const CANONICAL_SCHEME = "svc:///";
export const MAX_REF_LENGTH = 2048;

// Object and op names are Weave's (dotted op names such as `openai.chat.completions.create`
// included): anything but `/`, `:`, whitespace and control characters. Digests are Weave's
// base64url hashes or hex; call ids are UUIDs or Weave's own id strings.
const OBJECT_NAME = /^[^/:\s\p{Cc}]{1,256}$/u;
const DIGEST = /^[A-Za-z0-9_=.-]{1,128}$/;
const CALL_ID = /^[A-Za-z0-9_-]{1,128}$/;
const EXTRA_SEGMENT = /^[^/\s\p{Cc}]{1,512}$/u;

export type RefKind = "object" | "op" | "call";

export interface ParsedRef {
  /** The ref in canonical form (`svc:///...`). */
  canonical: string;
  /** `team/project` the ref points into. */
  project: string;
  kind: RefKind;
  /** Object or op name, or the call id. */
  name: string;
  /** Object or op version; null for calls. */
  digest: string | null;
}

export class RefError extends Error {}

/** Parses a `svc:///` or `weave:///` ref; throws RefError saying what is wrong. */
export function parseRef(ref: string): ParsedRef {
  if (ref.length > MAX_REF_LENGTH) throw new RefError(`a ref is at most ${MAX_REF_LENGTH} characters`);
  const scheme = REF_SCHEMES.find((s) => ref.startsWith(s));
  if (!scheme) throw new RefError("a ref starts with svc:/// (or weave:///)");
  const [team, project, kind, target, ...extra] = ref.slice(scheme.length).split("/");
  if (!team || !NAME_PATTERN.test(team) || !project || !NAME_PATTERN.test(project)) {
    throw new RefError("a ref names its project as svc:///<team>/<project>/...");
  }
  if (kind !== "object" && kind !== "op" && kind !== "call") {
    throw new RefError("a ref is svc:///<team>/<project>/object/<name>:<digest>, .../op/<name>:<digest> or .../call/<call id>");
  }
  if (extra.some((segment) => !EXTRA_SEGMENT.test(segment))) throw new RefError("a ref's path has an empty or malformed segment");
  const canonical = CANONICAL_SCHEME + ref.slice(scheme.length);
  if (kind === "call") {
    if (!target || !CALL_ID.test(target)) throw new RefError("a call ref ends in call/<call id>");
    return { canonical, project: `${team}/${project}`, kind, name: target, digest: null };
  }
  const colon = (target ?? "").lastIndexOf(":");
  const name = colon > 0 ? target.slice(0, colon) : "";
  const digest = colon > 0 ? target.slice(colon + 1) : "";
  if (!OBJECT_NAME.test(name) || !DIGEST.test(digest)) throw new RefError(`an ${kind} ref ends in ${kind}/<name>:<digest>`);
  return { canonical, project: `${team}/${project}`, kind, name, digest };
}

/** The canonical form of a string that may be a ref (other strings are returned unchanged). */
export function canonicalizeRefText(value: string): string {
  return value.startsWith("weave:///") ? CANONICAL_SCHEME + value.slice("weave:///".length) : value;
}

export const objectRef = (project: string, name: string, digest: string) => `${CANONICAL_SCHEME}${project}/object/${name}:${digest}`;
