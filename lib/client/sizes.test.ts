import { describe, expect, it } from "vitest";
import { formatBytes, formatCount } from "./sizes";

describe("sizes", () => {
  it("shows parameters compactly and bytes in decimal units", () => {
    expect([formatCount(494_005_120), formatCount(8_798_208), formatCount(950)]).toEqual(["494M", "8.8M", "950"]);
    expect([formatBytes(512), formatBytes(35_192_832), formatBytes(1_979_000_000), formatBytes(4_500)]).toEqual(["512 B", "35.2 MB", "1.98 GB", "4.50 kB"]);
  });
});
