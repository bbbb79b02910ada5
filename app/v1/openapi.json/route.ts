// GET /v1/openapi.json — the OpenAPI document, generated from the operations' zod schemas
import { openApiDocument } from "@/lib/api/openapi";
import { handle } from "@/lib/http/handle";
import { openApiOp } from "@/lib/health/operations";

export const GET = handle(openApiOp, async () => openApiDocument());
