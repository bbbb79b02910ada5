// One instruction-set build of every kernel: compiled once per -march by scripts/build-native.mjs
// with -DVARIANT=<name>, giving the table kernels_<name>.
#include "kernels.h"
#include <string.h>
#include "packed.c"
#include "gemm.c"
#include "float_lanes.c"
#include "kquant.c"
#include "ggml_math.c"
#include "attention.c"
#include "rmsnorm.c"
#include "swiglu.c"
#include "token_logprobs.c"
#include "adamw.c"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define STR_(a) #a
#define STR(a) STR_(a)

const kernel_table CAT(kernels_, VARIANT) = {
    .name = STR(VARIANT),
    .sgemm = sgemm,
    .matmul_xwt = matmul_xwt,
    .matmul_dyw = matmul_dyw,
    .gather_rows = gather_rows,
    .attention_forward = attention_forward,
    .attention_backward = attention_backward,
    .rmsnorm_forward = rmsnorm_forward,
    .rmsnorm_backward = rmsnorm_backward,
    .swiglu_forward = swiglu_forward,
    .swiglu_backward = swiglu_backward,
    .token_logprobs_forward = token_logprobs_forward,
    .token_logprobs_backward = token_logprobs_backward,
    .adamw_step = adamw_step,
};
