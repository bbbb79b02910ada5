import { defineOperation } from "@/lib/contract/operation";
import { trainingEstimateQuery, trainingEstimateSchema } from "./schemas";

export const getTrainingEstimateOp = defineOperation({
  id: "getTrainingEstimate", method: "GET", path: "/v1/preview/training-estimate", tag: "Models", auth: "bearer",
  summary: "A LoRA adapter's size on a base, and an estimate of a job's time and peak memory (from bench:lora's measurements)",
  query: trainingEstimateQuery, response: trainingEstimateSchema,
});
