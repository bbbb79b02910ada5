// Why an adapter file cannot be taken, in two kinds a caller answers differently: the bytes are not a
// well-formed adapter (the upload is malformed), or a well-formed adapter does not fit this base.

/** Not a well-formed adapter file (zip, safetensors, adapter_config.json, GGUF LoRA). */
export class MalformedAdapterError extends Error {}

/** A well-formed adapter that does not fit the base or the model's LoRA settings. */
export class AdapterMismatchError extends Error {}

/** An archive whose entries would unpack past the cap (a zip bomb, or simply too large). */
export class AdapterTooLargeError extends Error {}
