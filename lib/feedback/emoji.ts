// Reactions hold exactly one emoji (`wandb.reaction.1`). The server adds what W&B Weave adds, so
// reactions group the same way: `alias` (the emoji's CLDR short name as :snake_case:), `detoned`
// (skin tones removed) and `detoned_alias`. Names are known for the emoji a reaction picker offers;
// any other emoji gets an alias of its code points (`:u1f9d1_200d_1f4bb:`), unique all the same.

// Built with RegExp: the `v` flag (Unicode sets, for \p{RGI_Emoji}) is past the TypeScript target.
const ONE_RGI_EMOJI = new RegExp("^\\p{RGI_Emoji}$", "v");
const SKIN_TONES = /[\u{1F3FB}-\u{1F3FF}]/gu;
const VARIATION_SELECTOR = "\uFE0F";

/** Exactly one emoji: a fully qualified RGI sequence, or one that lacks only its VS16 ("❤"). */
export function isOneEmoji(text: string): boolean {
  return ONE_RGI_EMOJI.test(text) || (!text.includes(VARIATION_SELECTOR) && ONE_RGI_EMOJI.test(text + VARIATION_SELECTOR));
}

const NAMES: Record<string, string> = {
  "👍": "thumbs_up", "👎": "thumbs_down", "❤": "red_heart", "😂": "face_with_tears_of_joy", "🎉": "party_popper",
  "🔥": "fire", "👀": "eyes", "🚀": "rocket", "😄": "grinning_face_with_smiling_eyes", "😀": "grinning_face",
  "🙂": "slightly_smiling_face", "😕": "confused_face", "😢": "crying_face", "😮": "face_with_open_mouth",
  "🤔": "thinking_face", "✅": "check_mark_button", "❌": "cross_mark", "💯": "hundred_points", "👏": "clapping_hands",
  "🙏": "folded_hands", "⭐": "star", "🤯": "exploding_head", "😍": "smiling_face_with_heart-eyes", "😞": "disappointed_face",
  "👌": "OK_hand", "💡": "light_bulb", "⚠": "warning", "🐛": "bug", "✨": "sparkles", "🤷": "person_shrugging",
};
const TONE_NAMES: Record<string, string> = {
  "\u{1F3FB}": "light_skin_tone", "\u{1F3FC}": "medium-light_skin_tone", "\u{1F3FD}": "medium_skin_tone",
  "\u{1F3FE}": "medium-dark_skin_tone", "\u{1F3FF}": "dark_skin_tone",
};

function alias(emoji: string): string {
  const bare = emoji.replaceAll(VARIATION_SELECTOR, "");
  const tones = [...bare.matchAll(SKIN_TONES)].map((m) => m[0]);
  const base = NAMES[bare.replace(SKIN_TONES, "")];
  if (base && tones.length <= 1) return `:${[base, ...tones.map((t) => TONE_NAMES[t])].join("_")}:`;
  return `:u${[...bare].map((c) => c.codePointAt(0)!.toString(16)).join("_")}:`;
}

/** The stored form of a reaction's payload: the client's fields plus alias, detoned, detoned_alias. */
export function reactionPayload(payload: Record<string, unknown>, emoji: string): Record<string, unknown> {
  const detoned = emoji.replace(SKIN_TONES, "");
  return { ...payload, alias: alias(emoji), detoned, detoned_alias: alias(detoned) };
}
