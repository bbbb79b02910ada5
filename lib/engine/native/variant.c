// One instruction-set build of every kernel: compiled once per -march by scripts/build-native.mjs
// with -DVARIANT=<name>, giving the table kernels_<name>.
#include "kernels.h"
#include <string.h>
#include "gemm.c"
#include "attention.c"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define STR_(a) #a
#define STR(a) STR_(a)

const kernel_table CAT(kernels_, VARIANT) = {STR(VARIANT), sgemm, attention_forward, attention_backward};
