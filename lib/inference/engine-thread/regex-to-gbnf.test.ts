import { describe, expect, it } from "vitest";
import { regexToGbnf } from "./regex-to-gbnf";

describe("regex → GBNF", () => {
  it("translates literals, classes, groups, alternation and quantifiers", () => {
    expect(regexToGbnf("^(yes|no)$")).toBe('root ::= ("y" "e" "s" | "n" "o")');
    expect(regexToGbnf("yes|no")).toBe('root ::= "y" "e" "s" | "n" "o"');
    expect(regexToGbnf("\\d{3}-\\d{4}")).toBe('root ::= [0-9]{3} "-" [0-9]{4}');
    expect(regexToGbnf("[A-Z][a-z]+\\.?")).toBe('root ::= [A-Z] [a-z]+ "."?');
    expect(regexToGbnf("(?:ab)*c{2,}x{1,3}")).toBe('root ::= ("a" "b")* "c"{2,} "x"{1,3}');
    expect(regexToGbnf('[^"\\\\]+')).toBe('root ::= [^"\\\\]+');
    expect(regexToGbnf("a\\sb.\\W")).toBe('root ::= "a" [ \\t\\n\\r] "b" [^\\n] [^a-zA-Z0-9_]');
  });

  it("refuses what GBNF cannot express, naming it", () => {
    expect(() => regexToGbnf("(?=a)b")).toThrow(/lookaround/);
    expect(() => regexToGbnf("(a)\\1")).toThrow(/backreferences/);
    expect(() => regexToGbnf("\\bword")).toThrow(/word boundaries/);
    expect(() => regexToGbnf("*a")).toThrow(/nothing to repeat/);
    expect(() => regexToGbnf("(ab")).toThrow(/unclosed group/);
  });
});
