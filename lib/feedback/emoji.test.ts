import { describe, expect, it } from "vitest";
import { isOneEmoji, reactionPayload } from "./emoji";

describe("isOneEmoji", () => {
  it.each(["👍", "👍🏿", "👩‍💻", "🇫🇷", "1️⃣", "❤️", "❤", "©"])("takes %s", (text) => expect(isOneEmoji(text)).toBe(true));
  it.each(["", "a", "1", "👍👍", "👍 ", ":thumbs_up:", "\uFE0F"])("refuses %j", (text) => expect(isOneEmoji(text)).toBe(false));
});

describe("reactionPayload", () => {
  it("adds the alias, the detoned emoji and its alias, keeping the client's fields", () => {
    expect(reactionPayload({ emoji: "👎🏻", source: "ui" }, "👎🏻")).toEqual({
      emoji: "👎🏻", source: "ui", alias: ":thumbs_down_light_skin_tone:", detoned: "👎", detoned_alias: ":thumbs_down:",
    });
    expect(reactionPayload({ emoji: "❤️" }, "❤️").alias).toBe(":red_heart:");
    expect(reactionPayload({ emoji: "🦄" }, "🦄").alias).toBe(":u1f984:");
  });
});
