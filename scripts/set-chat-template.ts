// Gives GGUF files Anneal's current chat template (lib/engine/tokenizer/chatml-template.ts), every
// weight and other key unchanged: models/tiny-chat.gguf after the template changes (this is how its
// template got tools), or an older model's checkpoints, which keep the template they were trained
// with until rewritten. Serving and training both read the template from the file, so a rewritten
// checkpoint renders the new way in both at once.
//   npx tsx scripts/set-chat-template.ts models/tiny-chat.gguf [more.gguf ...]
import { setChatTemplate } from "../lib/engine/gguf/set-chat-template";
import { CHATML_TEMPLATE } from "../lib/engine/tokenizer/chatml-template";

const files = process.argv.slice(2);
if (files.length === 0) {
  process.stderr.write("usage: npx tsx scripts/set-chat-template.ts <file.gguf> [...]\n");
  process.exit(2);
}
for (const file of files) process.stdout.write(`${file}: ${setChatTemplate(file, CHATML_TEMPLATE) ? "rewritten" : "already has it"}\n`);
