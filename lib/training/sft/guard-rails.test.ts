import { describe, expect, it } from "vitest";
import { degenerations, repeatedNgramShare, validText, type SampledReply } from "./degeneration";
import { EarlyStopping } from "./early-stopping";
import { guardRailWarnings, lossTrend, type Measurement } from "./guard-rails";
import { plainAnswer, validationProbe } from "./knowledge-probe";
import { shuffledIndices, splitValidation, validationCount } from "./validation-split";

const utf8 = (text: string) => new TextEncoder().encode(text);
const reply = (tokens: number[], ended = true, bytes = utf8(tokens.join(" "))): SampledReply => ({ tokens, bytes, ended });
const fine = reply([1, 2, 3]);
const looping = reply(Array.from({ length: 24 }, (_, i) => 7 + (i % 2)));
const endless = reply([1, 2, 3, 4], false);
const measured = (replies: SampledReply[], loss = NaN, accuracy = NaN): Measurement => ({ replies, loss, accuracy, probe: null });
const codes = (before: Measurement, after: Measurement, losses: number[] = [], expected = ["1", "2", "3", "4"]) => guardRailWarnings(before, after, losses, true, expected).map((w) => w.code);

describe("validation split", () => {
  it("holds out a share, at least one example, always leaving one to train on", () => {
    expect([validationCount(0, 10), validationCount(0.1, 40), validationCount(0.01, 10), validationCount(0.5, 2), validationCount(0.2, 1)]).toEqual([0, 4, 1, 1, 0]);
  });

  it("is the same for the same data and puts every example on exactly one side", () => {
    const items = Array.from({ length: 20 }, (_, i) => i);
    const a = splitValidation(items, 0.25, 1);
    expect(a).toEqual(splitValidation(items, 0.25, 1));
    expect(a.validation).toHaveLength(5);
    expect([...a.train, ...a.validation].sort((x, y) => x - y)).toEqual(items);
    expect(a.validation).not.toEqual(items.slice(0, 5));
    expect([...shuffledIndices(20, 3)].sort((x, y) => x - y)).toEqual(items);
  });
});

describe("early stopping", () => {
  it("stops after `patience` evaluations without a lower loss and remembers the best epoch", () => {
    const stop = new EarlyStopping(2);
    expect([stop.observe(1, 2.0), stop.observe(2, 1.5), stop.observe(3, 1.6)]).toEqual([true, true, false]);
    expect(stop.shouldStop).toBe(false);
    stop.observe(4, 1.5);
    expect(stop.shouldStop).toBe(true);
    expect([stop.bestEpoch, stop.best]).toEqual([2, 1.5]);
  });

  it("never stops without validation (patience null)", () => {
    const stop = new EarlyStopping(null);
    for (let epoch = 1; epoch <= 5; epoch++) stop.observe(epoch, epoch);
    expect(stop.shouldStop).toBe(false);
  });
});

describe("degeneration", () => {
  it("finds loops, broken text and replies that never end", () => {
    expect(repeatedNgramShare([1, 2, 3, 4, 5])).toBe(0);
    expect(repeatedNgramShare(looping.tokens)).toBeGreaterThan(0.9);
    expect(degenerations(fine)).toEqual([]);
    expect(degenerations(looping)).toEqual(["repetition"]);
    expect(degenerations(endless)).toEqual(["never_ends_turn"]);
    expect(validText(Uint8Array.from([0x68, 0xc3]))).toBe(false); // a UTF-8 sequence cut short
    expect(validText(utf8("a\uFFFDb"))).toBe(false);
    expect(validText(utf8("a\u0007"))).toBe(false);
    expect(validText(utf8("tab\tand\nnewline é"))).toBe(true);
  });
});

describe("guard rails", () => {
  it("flags a degeneration the start did not show, not one it already had", () => {
    expect(codes(measured([fine, fine, fine, fine]), measured([looping, looping, endless, fine]))).toEqual(["repetition", "never_ends_turn"]);
    expect(codes(measured([looping, looping, fine, fine]), measured([looping, looping, fine, fine]))).toEqual([]);
  });

  it("flags validation loss and accuracy far worse than the start's, and a rising training loss", () => {
    expect(codes(measured([fine], 1.0, 0.5), measured([fine], 1.05, 0.45))).toEqual([]);
    expect(codes(measured([fine], 1.0, 0.5), measured([fine], 1.5, 0.3))).toEqual(["validation_loss_worse", "validation_accuracy_dropped"]);
    expect(codes(measured([fine]), measured([fine], NaN), [2, 2, 2, 2, 3, 3, 3, 3])).toEqual(["training_loss_rose"]);
    expect(lossTrend([4, 3, 2, 1])).toEqual({ first: 4, last: 1 });
  });

  it("flags replies that collapse to one text when the expected replies differ, not a job that teaches one reply", () => {
    const said = (text: string) => reply([1, 2], true, utf8(text));
    const varied = [said("4"), said("8"), said("7"), said("5")];
    const same = [said("2"), said("2"), said(" 2"), said("9")];
    expect(codes(measured(varied), measured(same))).toEqual(["same_reply"]);
    expect(codes(measured(varied), measured(same), [], ["I am Anneal.", "I am Anneal.", "I am Anneal.", "I am Anneal."])).toEqual([]);
    expect(codes(measured(varied.slice(0, 3)), measured(same.slice(0, 3)))).toEqual([]);
  });

  it("says what it saw in its message", () => {
    const [warning] = guardRailWarnings(measured([fine, fine]), measured([endless, endless]), [], false, ["a", "b"]);
    expect(warning.message).toBe("2 of 2 greedy replies to training prompts (the job has no validation examples) never end the turn (no end-of-turn token within the reply limit), against 0 before training.");
  });

  it("names a fall of 10 points or more in what the probe's prompts got right, with one prompt that went wrong", () => {
    const probed = (right: boolean[], replies: string[]): Measurement => ({ ...measured([fine]), probe: { right, replies } });
    const probe = { source: "4 held-out prompts of anneal/tiny-chat-2's curriculum", questions: ["What is 3 + 4?", "Reverse: ab", "2 + 2 =", "Count: aaa"] };
    const before = probed([true, true, true, false], ["7", "ba", "4", "2"]);
    const warn = (after: Measurement) => guardRailWarnings(before, after, [], true, ["1", "2"], probe);
    expect(warn(probed([true, true, true, true], ["<answer>7</answer>", "ba", "4", "3"]))).toEqual([]);
    const [warning] = warn(probed([false, true, false, false], ["<answer>m</answer>9</answer>o<<<<", "ba", "944.", "1"]));
    expect(warning).toEqual({
      code: "correct_answers_dropped",
      message: "Correct answers fell from 75% to 25% on 4 held-out prompts of anneal/tiny-chat-2's curriculum: the starting weights answered 3 of 4 right, the checkpoint 1. " +
        'Training has undone part of what the model knew. For example "What is 3 + 4?": "7" before, "<answer>m</answer>9</answer>o<<<<" after.',
    });
  });

  it("checks probe replies without markup, and validation prompts against the example's own reply", () => {
    expect([plainAnswer("<answer>7</answer>"), plainAnswer(" 944. "), plainAnswer("<answer>m</answer>9</answer>o")]).toEqual(["7", "944", "m9o"]);
    const [prompt] = validationProbe([{ ids: [1], question: "What is 3 + 4?", expected: "7." }]).prompts;
    expect([prompt.check("7"), prompt.check("944")]).toEqual([true, false]);
  });
});
