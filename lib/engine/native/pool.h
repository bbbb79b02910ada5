// A small pthread pool owned by one addon instance (one JavaScript thread): kernel_context.run
// hands it `tasks` tasks, runs task 0 on the calling thread and returns when all are done.
#ifndef ANNEAL_POOL_H
#define ANNEAL_POOL_H

#include "kernels.h"

typedef struct kernel_pool kernel_pool;

// A pool of `threads` − 1 workers plus the caller, each with its own scratch; NULL when out of memory
// or a thread could not start. ctx is filled in to use it.
kernel_pool* pool_create(int threads, kernel_context* ctx);
// Stops and joins the workers, frees every scratch and the pool.
void pool_destroy(kernel_pool* pool);

#endif
