import { describe, expect, it, vi } from "vitest";

// npm start loads lib/ twice (tsx for its scripts, Next's server bundle for the routes): an error
// made by one copy of errors.ts must be recognised by the other's route wrapper.
describe("AppError across module copies", () => {
  it("is an AppError (and a ValidationError only when it is one) to another copy of the module", async () => {
    const ours = await import("./errors");
    vi.resetModules();
    const theirs = await import("./errors");
    expect(theirs.AppError).not.toBe(ours.AppError);

    const notFound = new theirs.AppError("not_found", "gone");
    expect(notFound).toBeInstanceOf(ours.AppError);
    expect(notFound).not.toBeInstanceOf(ours.ValidationError);
    expect((notFound as InstanceType<typeof ours.AppError>).status).toBe(404);

    const invalid = theirs.invalid(["body", "n"], "bad");
    expect(invalid).toBeInstanceOf(ours.ValidationError);
    expect(invalid).toBeInstanceOf(ours.AppError);
    expect(new Error("plain")).not.toBeInstanceOf(ours.AppError);
  });
});
