import { defineOperation } from "@/lib/http/operation";
import { callDetailSchema, callPage, callParams, listCallsQuery } from "./schemas";

// Recorded chat completion calls: list (to pick conversations for SFT) and read one.

export const listCallsOp = defineOperation({
  id: "listCalls", method: "GET", path: "/v1/calls", tag: "Calls", auth: "bearer",
  summary: "Recorded chat completions of the projects the caller may use (cursor page, newest first; filter by project, model, status)",
  query: listCallsQuery, response: callPage,
});

export const getCallOp = defineOperation({
  id: "getCall", method: "GET", path: "/v1/calls/{call_id}", tag: "Calls", auth: "bearer",
  summary: "One recorded call, with the whole request and response",
  params: callParams, response: callDetailSchema,
});
