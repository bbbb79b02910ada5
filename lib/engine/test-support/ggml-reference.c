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
// and, through the libggml-cpu variant ggml's backend loader picks for this CPU (best ggml_backend_score):
//   cpu-variant                    the file name of that variant
//   round <type> <n_per_row>       f32 rows in; each row through from_float of <type>'s vec_dot_type, as
//                                  mul_mat converts its activations, decoded back to f32 (d·q)
//   mul-mat <type> <rows> <cols>   W (rows·cols of <type>) then X (f32, M rows of cols) in; C[M,rows] out,
//                                  each element vec_dot(W row, from_float(X row)) as mul_mat computes it

#include <dirent.h>
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
typedef float (*fp16_to_fp32_fn)(uint16_t h);

// ggml-cpu.h: struct ggml_type_traits_cpu and the functions that give it.
typedef void (*ggml_vec_dot_t)(int n, float *s, size_t bs, const void *x, size_t bx, const void *y, size_t by, int nrc);
struct ggml_type_traits_cpu {
  ggml_from_float_t from_float;
  ggml_vec_dot_t vec_dot;
  int vec_dot_type; // enum ggml_type
  int64_t nrows;
};
typedef const struct ggml_type_traits_cpu *(*get_type_traits_cpu_fn)(int type);
typedef int (*backend_score_fn)(void);
typedef void (*cpu_init_fn)(void);
#define GGML_TYPE_F32 0
#define GGML_TYPE_F16 1
#define GGML_TYPE_Q8_0 8
#define GGML_TYPE_Q8_1 9
#define GGML_TYPE_Q8_K 15
#define GGML_TYPE_BF16 30

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

// The libggml-cpu-*.so with the highest ggml_backend_score (0: cannot run here), as ggml_backend_load_best picks.
static void *best_cpu_variant(const char *bins, char *name, size_t name_len) {
  DIR *dir = opendir(bins);
  if (!dir) die("cannot list", bins);
  int best = 0;
  void *chosen = NULL;
  for (struct dirent *e; (e = readdir(dir));) {
    size_t len = strlen(e->d_name);
    if (strncmp(e->d_name, "libggml-cpu-", 12) != 0 || len < 3 || strcmp(e->d_name + len - 3, ".so") != 0) continue;
    void *lib = open_library(bins, e->d_name);
    backend_score_fn score = (backend_score_fn)dlsym(lib, "ggml_backend_score");
    int s = score ? score() : 0;
    if (s > best) {
      best = s;
      chosen = lib;
      snprintf(name, name_len, "%s", e->d_name);
    }
  }
  closedir(dir);
  if (!chosen) die("no libggml-cpu variant runs on this CPU", bins);
  ((cpu_init_fn)symbol(chosen, "ggml_cpu_init"))();
  return chosen;
}

// Values of one row as the vec_dot_type `vt` encodes them (from_float's output), decoded to f32.
static void decode_vec_dot_row(void *base, int vt, const unsigned char *q, float *y, int64_t n) {
  fp16_to_fp32_fn h = (fp16_to_fp32_fn)symbol(base, "ggml_fp16_to_fp32");
  uint16_t u16;
  float f;
  for (int64_t i = 0; i < n; i++) {
    if (vt == GGML_TYPE_F32) memcpy(&y[i], q + 4 * i, 4);
    else if (vt == GGML_TYPE_F16) { memcpy(&u16, q + 2 * i, 2); y[i] = h(u16); }
    else if (vt == GGML_TYPE_BF16) { uint32_t b = (uint32_t)q[2 * i] << 16 | (uint32_t)q[2 * i + 1] << 24; memcpy(&y[i], &b, 4); }
    else if (vt == GGML_TYPE_Q8_0) { const unsigned char *b = q + (i / 32) * 34; memcpy(&u16, b, 2); y[i] = h(u16) * (int8_t)b[2 + i % 32]; }
    else if (vt == GGML_TYPE_Q8_1) { const unsigned char *b = q + (i / 32) * 36; memcpy(&u16, b, 2); y[i] = h(u16) * (int8_t)b[4 + i % 32]; }
    else if (vt == GGML_TYPE_Q8_K) { const unsigned char *b = q + (i / 256) * 292; memcpy(&f, b, 4); y[i] = f * (int8_t)b[4 + i % 256]; }
    else die("cannot decode this vec_dot_type", NULL);
  }
}

static size_t row_size(const struct ggml_type_traits *t, int64_t n) { return (size_t)(n / t->blck_size) * t->type_size; }

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

  char variant[256] = "";
  if (strcmp(command, "cpu-variant") == 0) {
    best_cpu_variant(bins, variant, sizeof variant);
    printf("%s\n", variant);
    return 0;
  }

  size_t n;
  unsigned char *in = read_stdin(&n);
  if (strcmp(command, "round") == 0 || strcmp(command, "mul-mat") == 0) {
    int is_round = strcmp(command, "round") == 0;
    if (argc != (is_round ? 5 : 6)) die("usage: round <type> <n_per_row> | mul-mat <type> <rows> <cols>", NULL);
    get_type_traits_cpu_fn cpu_traits = (get_type_traits_cpu_fn)symbol(best_cpu_variant(bins, variant, sizeof variant), "ggml_get_type_traits_cpu");
    int type = atoi(argv[3]);
    const struct ggml_type_traits *wt = traits_of(base, type);
    const struct ggml_type_traits_cpu *wc = cpu_traits(type);
    int vt = wc->vec_dot_type;
    const struct ggml_type_traits *vtt = traits_of(base, vt);
    ggml_from_float_t from_float = cpu_traits(vt)->from_float;
    int64_t rows = is_round ? 0 : atoll(argv[4]), cols = atoll(is_round ? argv[4] : argv[5]);
    if (cols <= 0 || cols % wt->blck_size != 0 || cols % vtt->blck_size != 0) die("rows do not fit", wt->type_name);
    size_t w_bytes = rows * row_size(wt, cols);
    if (n < w_bytes || (n - w_bytes) % (cols * sizeof(float)) != 0) die("input is not W then whole rows of X", NULL);
    int64_t M = (int64_t)((n - w_bytes) / (cols * sizeof(float)));
    const float *X = (const float *)(in + w_bytes);
    unsigned char *xq = malloc(row_size(vtt, cols));
    float *out = malloc((size_t)M * (is_round ? cols : rows) * sizeof(float) + 1);
    for (int64_t i = 0; i < M; i++) {
      from_float(X + i * cols, xq, cols);
      if (is_round) decode_vec_dot_row(base, vt, xq, out + i * cols, cols);
      else for (int64_t j = 0; j < rows; j++) wc->vec_dot((int)cols, out + i * rows + j, 0, in + j * row_size(wt, cols), 0, xq, 0, 1);
    }
    write_stdout(out, (size_t)M * (is_round ? cols : rows) * sizeof(float));
    return 0;
  }
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
