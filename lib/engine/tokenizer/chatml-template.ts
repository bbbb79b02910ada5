// The chat template Anneal writes into its models' GGUFs (tokenizer.chat_template): ChatML, with
// tools in the Hermes convention (Qwen2.5's) in its most compact form, since tiny-chat's whole
// context is 128 tokens: the tools' signatures in a <tools> block at the end of the system message
// (a developer message counts as one), each of an assistant's calls as a <tool_call> block after its
// text, and consecutive tool results as one user turn of <tool_response> blocks. A conversation
// without tools renders exactly as plain ChatML, the format tiny-chat was pretrained on.
// Serving and training both render through it (chat-template.ts), so it is the single definition.

export const CHATML_TEMPLATE = String.raw`{%- set tool_roles = ['tool', 'function'] %}
{%- if tools %}
  {{- '<|im_start|>system\n' }}
  {%- if messages[0].role in ['system', 'developer'] %}{{- messages[0].content + '\n\n' }}{%- endif %}
  {{- '<tools>' }}
  {%- for tool in tools %}{{- '\n' + (tool | tojson) }}{%- endfor %}
  {{- '\n</tools><|im_end|>\n' }}
{%- endif %}
{%- for message in messages %}
  {%- if tools and loop.first and message.role in ['system', 'developer'] %}
  {%- elif message.role == 'developer' %}
    {{- '<|im_start|>system\n' + message.content + '<|im_end|>\n' }}
  {%- elif message.role == 'assistant' and message.tool_calls %}
    {{- '<|im_start|>assistant\n' }}
    {%- if message.content %}{{- message.content + '\n' }}{%- endif %}
    {%- for call in message.tool_calls %}
      {%- if not loop.first %}{{- '\n' }}{%- endif %}
      {{- '<tool_call>\n{"name": "' + call.function.name + '", "arguments": ' + (call.function.arguments | tojson) + '}\n</tool_call>' }}
    {%- endfor %}
    {{- '<|im_end|>\n' }}
  {%- elif message.role in tool_roles %}
    {%- if loop.first or messages[loop.index0 - 1].role not in tool_roles %}{{- '<|im_start|>user\n' }}{%- else %}{{- '\n' }}{%- endif %}
    {{- '<tool_response>\n' + message.content + '\n</tool_response>' }}
    {%- if loop.last or messages[loop.index0 + 1].role not in tool_roles %}{{- '<|im_end|>\n' }}{%- endif %}
  {%- else %}
    {{- '<|im_start|>' + message.role + '\n' + message.content + '<|im_end|>\n' }}
  {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}{{- '<|im_start|>assistant\n' }}{%- endif %}`;
