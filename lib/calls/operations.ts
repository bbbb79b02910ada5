import { defineOperation } from "@/lib/contract/operation";
import { callDetailSchema, callPage, callParams, listCallsQuery } from "./schemas";

// Recorded chat completion calls: the call log (to browse and judge calls, and pick conversations
// for SFT) and one call.

export const listCallsOp = defineOperation({
  id: "listCalls", method: "GET", path: "/v1/calls", tag: "Calls", auth: "bearer",
  summary: "The call log: recorded chat completions of the projects the caller may use (cursor page, newest first; filter by project, model, status, time range and feedback), each with previews and a feedback summary",
  query: listCallsQuery, response: callPage,
});

export const getCallOp = defineOperation({
  id: "getCall", method: "GET", path: "/v1/calls/{call_id}", tag: "Calls", auth: "bearer",
  summary: "One recorded call, with the whole request and response",
  params: callParams, response: callDetailSchema,
});
