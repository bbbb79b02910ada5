// The probe thread's entry: the thread starts in plain Node, so it loads the TypeScript entry
// through tsx (which also resolves the project's `@/` paths).
import { tsImport } from "tsx/esm/api";

await tsImport("./probe-thread.ts", import.meta.url);
