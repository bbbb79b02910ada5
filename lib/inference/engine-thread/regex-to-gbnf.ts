import { badRequest } from "@/lib/contract/errors";
import { MAX_GRAMMAR_NESTING } from "./grammar-bounds";

// structured_outputs.regex → a GBNF grammar for llama.cpp's grammar engine. GBNF has literals,
// character classes, groups, alternation and the quantifiers * + ? {m,n}, which covers most
// regular expressions; anchors are implied (the whole output must match). Lookaround and
// backreferences are not regular in GBNF's sense and are refused with 400, as are counts beyond
// what llama.cpp's grammar parser expands and groups nested deeper than its bound (grammar-bounds.ts).

/** llama.cpp's grammar parser refuses a repetition count above this (MAX_REPETITION_THRESHOLD). */
const MAX_REPETITIONS = 2000;

class RegexParser {
  private i = 0;
  private depth = 0;
  constructor(private readonly src: string) {}

  parse(): string {
    if (this.src.startsWith("^")) this.i++;
    const body = this.alternation();
    if (this.i < this.src.length) this.fail(`unexpected '${this.src[this.i]}'`);
    return body;
  }

  private fail(message: string): never {
    throw badRequest(`structured_outputs.regex cannot be used: ${message} at position ${this.i}.`);
  }

  private alternation(): string {
    const branches = [this.sequence()];
    while (this.src[this.i] === "|") {
      this.i++;
      branches.push(this.sequence());
    }
    return branches.join(" | "); // wrapped by the group (or the rule) that holds it
  }

  private sequence(): string {
    const items: string[] = [];
    while (this.i < this.src.length && this.src[this.i] !== "|" && this.src[this.i] !== ")") {
      if (this.src[this.i] === "$" && this.i === this.src.length - 1) {
        this.i++;
        continue;
      }
      items.push(this.quantified(this.atom()));
    }
    return items.length ? items.join(" ") : '""';
  }

  private quantified(atom: string): string {
    const c = this.src[this.i];
    let out = atom;
    if (c === "*" || c === "+" || c === "?") {
      this.i++;
      out = `${atom}${c}`;
    } else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
      if (!m) this.fail("a malformed {m,n} quantifier");
      if (Number(m[1]) > MAX_REPETITIONS || Number(m[3] || 0) > MAX_REPETITIONS) this.fail(`a repetition count over ${MAX_REPETITIONS}`);
      this.i += m[0].length;
      out = `${atom}{${m[1]}${m[2] ? `,${m[3]}` : ""}}`;
    }
    if (this.src[this.i] === "?") this.i++; // lazy and greedy match the same strings
    return out;
  }

  private atom(): string {
    const c = this.src[this.i++];
    switch (c) {
      case "(": {
        if (this.src.startsWith("?:", this.i)) this.i += 2;
        else if (this.src[this.i] === "?") this.fail("lookaround and named groups are not supported");
        if (++this.depth > MAX_GRAMMAR_NESTING) this.fail(`groups nested deeper than ${MAX_GRAMMAR_NESTING} levels`);
        const inner = this.alternation();
        if (this.src[this.i++] !== ")") this.fail("an unclosed group");
        this.depth--;
        return `(${inner})`;
      }
      case "[":
        return this.characterClass();
      case ".":
        return "[^\\n]";
      case "\\":
        return this.escape(false);
      case "*":
      case "+":
      case "?":
      case "{":
        return this.fail(`a quantifier '${c}' with nothing to repeat`);
      default:
        return literal(c);
    }
  }

  private characterClass(): string {
    let out = "[";
    if (this.src[this.i] === "^") {
      out += "^";
      this.i++;
    }
    let first = true;
    while (this.i < this.src.length && (this.src[this.i] !== "]" || first)) {
      first = false;
      const c = this.src[this.i++];
      if (c === "\\") out += this.escape(true);
      else out += c === "]" || c === "[" ? `\\${c}` : c;
    }
    if (this.src[this.i++] !== "]") this.fail("an unclosed character class");
    return `${out}]`;
  }

  private escape(inClass: boolean): string {
    const c = this.src[this.i++];
    const classes: Record<string, string> = { d: "0-9", w: "a-zA-Z0-9_", s: " \\t\\n\\r" };
    if (c in classes) return inClass ? classes[c] : `[${classes[c]}]`;
    const negated: Record<string, string> = { D: "0-9", W: "a-zA-Z0-9_", S: " \\t\\n\\r" };
    if (c in negated) {
      if (inClass) this.fail(`\\${c} inside a character class is not supported`);
      return `[^${negated[c]}]`;
    }
    if (/[1-9]/.test(c)) this.fail("backreferences are not supported");
    if (c === "b" || c === "B") this.fail("word boundaries are not supported");
    const control: Record<string, string> = { n: "\\n", t: "\\t", r: "\\r" };
    if (c in control) return inClass ? control[c] : `"${control[c]}"`;
    return inClass ? (/[\]\[\\^-]/.test(c) ? `\\${c}` : c) : literal(c);
  }
}

function literal(c: string): string {
  return `"${c === '"' || c === "\\" ? `\\${c}` : c}"`;
}

export function regexToGbnf(regex: string): string {
  return `root ::= ${new RegexParser(regex).parse()}`;
}
