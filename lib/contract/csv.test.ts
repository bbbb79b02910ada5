import { describe, expect, it } from "vitest";
import { csvText } from "./csv";

describe("csvText", () => {
  it("writes RFC 4180: CRLF lines, fields with commas, quotes or line breaks quoted, quotes doubled", () => {
    expect(csvText([["a", "b,c"], ['say "hi"', "two\nlines"]])).toBe('a,"b,c"\r\n"say ""hi""","two\nlines"\r\n');
  });

  it("writes null and undefined as empty fields, numbers and booleans as they are, objects as JSON", () => {
    expect(csvText([[null, undefined, 3.5, false, { a: 1 }]])).toBe(',,3.5,false,"{""a"":1}"\r\n');
  });
});
