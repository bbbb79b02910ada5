// ggml itself, as the reference Anneal's weight decoding is tested against (ggml-reference.ts builds
// and runs this). It dlopen()s the libggml-base and libllama that node-llama-cpp ships, so the tests
// compare with the very library Anneal serves with, not with a port of it. No ggml headers are needed:
// the few declarations below are copied from the ggml.h and llama.h of that release (llama.cpp as
// bundled with node-llama-cpp 3.22.1, libllama v0.5.0), and checked at run time where they can be.
//
// Usage: ggml-reference <bins dir> <command> [args]; data is raw little-endian on stdin and stdout.
//   traits                         one line per ggml type: code, name, blck_size, type_size
//   quantize <type> <n_per_row>    f32 rows in, ggml_quantize_chunk's bytes out (no imatrix)
//   dequantize <type>              bytes in, ggml_get_type_traits(type)->to_float's f32 out (F32: copied)
//   fp16 | bf16 | bf16-ref         f32 in, ggml_fp32_to_fp16_row / _bf16_row / _bf16_row_ref out
//   llama-quantize <in> <out> <ftype> <nthread>   llama_model_quantize (a GGUF file to another)

#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ggml.h: GGML_TYPE_COUNT, ggml_to_float_t, ggml_from_float_t, struct ggml_type_traits.
#define GGML_TYPE_COUNT 43
typedef void (*ggml_to_float_t)(const void *x, float *y, int64_t k);
typedef void (*ggml_from_float_t)(const float *x, void *y, int64_t k);
struct ggml_type_traits {
  const char *type_name;
  int64_t blck_size;
  int64_t blck_size_interleave;
  size_t type_size;
  bool is_quantized;
  ggml_to_float_t to_float;
  ggml_from_float_t from_float_ref;
};
typedef const struct ggml_type_traits *(*get_type_traits_fn)(int type);
typedef size_t (*quantize_chunk_fn)(int type, const float *src, void *dst, int64_t start, int64_t nrows,
                                    int64_t n_per_row, const float *imatrix);
typedef void (*fp32_to_half_row_fn)(const float *x, uint16_t *y, int64_t n);

// llama.h: struct llama_model_quantize_params (enums are int-sized) and the functions that use it.
struct llama_model_quantize_params {
  int32_t nthread;
  int32_t ftype;                // enum llama_ftype
  int32_t output_tensor_type;   // enum ggml_type
  int32_t token_embedding_type; // enum ggml_type
  bool allow_requantize;
  bool quantize_output_tensor;
  bool only_copy;
  bool pure;
  bool keep_split;
  bool dry_run;
  const void *imatrix;
  const void *kv_overrides;
  const void *tt_overrides;
  const int32_t *prune_layers;
  size_t max_buf_size;
};
typedef struct llama_model_quantize_params (*quantize_default_params_fn)(void);
typedef uint32_t (*model_quantize_fn)(const char *in, const char *out, const struct llama_model_quantize_params *params);
typedef void (*backend_init_fn)(void);

static void die(const char *what, const char *detail) {
  fprintf(stderr, "ggml-reference: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  exit(2);
}

static void *open_library(const char *dir, const char *file) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) die("cannot load", dlerror());
  return lib;
}

static void *symbol(void *lib, const char *name) {
  void *f = dlsym(lib, name);
  if (!f) die("missing symbol", name);
  return f;
}

static unsigned char *read_stdin(size_t *length) {
  size_t cap = 1 << 20, n = 0;
  unsigned char *buf = malloc(cap);
  for (;;) {
    if (n == cap && !(buf = realloc(buf, cap *= 2))) die("out of memory", NULL);
    size_t got = fread(buf + n, 1, cap - n, stdin);
    if (got == 0) break;
    n += got;
  }
  *length = n;
  return buf;
}

static void write_stdout(const void *data, size_t n) {
  if (fwrite(data, 1, n, stdout) != n) die("short write", NULL);
}

static const struct ggml_type_traits *traits_of(void *base, int type) {
  if (type < 0 || type >= GGML_TYPE_COUNT) die("type out of range", NULL);
  const struct ggml_type_traits *t = ((get_type_traits_fn)symbol(base, "ggml_get_type_traits"))(type);
  if (!t || t->blck_size <= 0 || t->type_size == 0) die("ggml does not define this type", t ? t->type_name : NULL);
  return t;
}

// Runs llama_model_quantize after checking that the default parameters read through our struct are the
// ones llama-quant.cpp's llama_model_quantize_default_params sets (a layout mismatch would show here).
static int llama_quantize(const char *bins, const char *in, const char *out, int ftype, int nthread) {
  void *llama = open_library(bins, "libllama.v0.5.0.so");
  ((backend_init_fn)symbol(llama, "llama_backend_init"))();
  struct llama_model_quantize_params p = ((quantize_default_params_fn)symbol(llama, "llama_model_quantize_default_params"))();
  if (p.nthread != 0 || p.ftype != 7 /* Q8_0 */ || p.output_tensor_type != GGML_TYPE_COUNT ||
      p.token_embedding_type != GGML_TYPE_COUNT || p.allow_requantize || !p.quantize_output_tensor || p.only_copy ||
      p.pure || p.keep_split || p.dry_run || p.imatrix || p.kv_overrides || p.tt_overrides || p.prune_layers ||
      p.max_buf_size != 8ull * 1024 * 1024 * 1024) {
    die("llama_model_quantize_params does not have the layout this program declares", NULL);
  }
  p.ftype = ftype;
  p.nthread = nthread;
  uint32_t rc = ((model_quantize_fn)symbol(llama, "llama_model_quantize"))(in, out, &p);
  if (rc != 0) die("llama_model_quantize failed", NULL);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 3) die("usage: ggml-reference <bins dir> <command> [args]", NULL);
  const char *bins = argv[1], *command = argv[2];
  if (strcmp(command, "llama-quantize") == 0) {
    if (argc != 7) die("usage: llama-quantize <in> <out> <ftype> <nthread>", NULL);
    return llama_quantize(bins, argv[3], argv[4], atoi(argv[5]), atoi(argv[6]));
  }

  void *base = open_library(bins, "libggml-base.so");
  if (strcmp(command, "traits") == 0) {
    get_type_traits_fn get = (get_type_traits_fn)symbol(base, "ggml_get_type_traits");
    for (int type = 0; type < GGML_TYPE_COUNT; type++) {
      const struct ggml_type_traits *t = get(type);
      printf("%d %s %lld %zu\n", type, t->type_name, (long long)t->blck_size, t->type_size);
    }
    return 0;
  }

  size_t n;
  unsigned char *in = read_stdin(&n);
  if (strcmp(command, "quantize") == 0) {
    if (argc != 5) die("usage: quantize <type> <n_per_row>", NULL);
    const struct ggml_type_traits *t = traits_of(base, atoi(argv[3]));
    int64_t per_row = atoll(argv[4]), values = (int64_t)(n / sizeof(float));
    if (per_row <= 0 || values % per_row != 0 || per_row % t->blck_size != 0) die("rows do not fit", t->type_name);
    size_t bytes = (size_t)(values / t->blck_size) * t->type_size;
    void *out = malloc(bytes ? bytes : 1);
    quantize_chunk_fn quantize = (quantize_chunk_fn)symbol(base, "ggml_quantize_chunk");
    if (quantize(atoi(argv[3]), (const float *)in, out, 0, values / per_row, per_row, NULL) != bytes) die("unexpected size", t->type_name);
    write_stdout(out, bytes);
  } else if (strcmp(command, "dequantize") == 0) {
    if (argc != 4) die("usage: dequantize <type>", NULL);
    const struct ggml_type_traits *t = traits_of(base, atoi(argv[3]));
    if (n % t->type_size != 0) die("not whole blocks", t->type_name);
    int64_t values = (int64_t)(n / t->type_size) * t->blck_size;
    float *out = malloc(values ? values * sizeof(float) : 1);
    if (t->to_float) t->to_float(in, out, values);
    else if (atoi(argv[3]) == 0) memcpy(out, in, n); // F32 has no to_float: ggml uses its bytes as they are
    else die("no to_float", t->type_name);
    write_stdout(out, values * sizeof(float));
  } else {
    const char *fn = strcmp(command, "fp16") == 0       ? "ggml_fp32_to_fp16_row"
                     : strcmp(command, "bf16") == 0     ? "ggml_fp32_to_bf16_row"
                     : strcmp(command, "bf16-ref") == 0 ? "ggml_fp32_to_bf16_row_ref"
                                                        : NULL;
    if (!fn) die("unknown command", command);
    int64_t values = (int64_t)(n / sizeof(float));
    uint16_t *out = malloc(values ? values * sizeof(uint16_t) : 1);
    ((fp32_to_half_row_fn)symbol(base, fn))((const float *)in, out, values);
    write_stdout(out, values * sizeof(uint16_t));
  }
  return 0;
}
