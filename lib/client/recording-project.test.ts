import { describe, expect, it } from "vitest";
import { recordingProject } from "./recording-project";

describe("recordingProject", () => {
  it("is a trained model's own project, and the workspace's for a base model", () => {
    expect(recordingProject("admin/journey/hi-bot", "admin/default")).toBe("admin/journey");
    expect(recordingProject("admin/journey/hi-bot:step3", "admin/default")).toBe("admin/journey");
    expect(recordingProject("anneal/tiny-chat-2", "admin/default")).toBe("admin/default");
    expect(recordingProject("qwen2.5-0.5b", undefined)).toBeUndefined();
  });
});
