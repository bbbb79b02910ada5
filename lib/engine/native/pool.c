// The kernels' thread pool (pool.h). Workers sleep on a condition variable between calls, so an idle
// pool costs no CPU on a machine it shares; a call costs a wake-up (tens of microseconds), which is
// why the kernels only split work worth several milliseconds.
#include "pool.h"
#include <pthread.h>
#include <stdlib.h>

struct kernel_pool {
  pthread_mutex_t mu;
  pthread_cond_t start, done;
  unsigned generation;  // bumped for each call; a worker runs when it sees a new one
  int pending;          // workers yet to finish the current call
  int exit;
  int tasks;
  kernel_task task;
  void* arg;
  int threads;
  int started;          // workers running
  kernel_scratch* scratch;
  pthread_t* workers;
  struct worker_arg { kernel_pool* pool; int index; } * args;
};

static void* worker_main(void* p) {
  struct worker_arg* w = p;
  kernel_pool* pool = w->pool;
  unsigned seen = 0;
  pthread_mutex_lock(&pool->mu);
  for (;;) {
    while (pool->generation == seen && !pool->exit) pthread_cond_wait(&pool->start, &pool->mu);
    if (pool->exit) break;
    seen = pool->generation;
    int tasks = pool->tasks;
    kernel_task task = pool->task;
    void* arg = pool->arg;
    pthread_mutex_unlock(&pool->mu);
    if (w->index < tasks) task(arg, w->index, &pool->scratch[w->index]);
    pthread_mutex_lock(&pool->mu);
    if (--pool->pending == 0) pthread_cond_signal(&pool->done);
  }
  pthread_mutex_unlock(&pool->mu);
  return NULL;
}

static void pool_run(void* p, int tasks, kernel_task task, void* arg) {
  kernel_pool* pool = p;
  if (tasks <= 1 || pool->started == 0) {
    for (int t = 0; t < tasks; t++) task(arg, t, &pool->scratch[0]);
    return;
  }
  pthread_mutex_lock(&pool->mu);
  pool->tasks = tasks;
  pool->task = task;
  pool->arg = arg;
  pool->pending = pool->started;
  pool->generation++;
  pthread_cond_broadcast(&pool->start);
  pthread_mutex_unlock(&pool->mu);
  task(arg, 0, &pool->scratch[0]);
  pthread_mutex_lock(&pool->mu);
  while (pool->pending > 0) pthread_cond_wait(&pool->done, &pool->mu);
  pthread_mutex_unlock(&pool->mu);
}

kernel_pool* pool_create(int threads, kernel_context* ctx) {
  if (threads < 1) threads = 1;
  kernel_pool* pool = calloc(1, sizeof *pool);
  if (!pool) return NULL;
  pthread_mutex_init(&pool->mu, NULL);
  pthread_cond_init(&pool->start, NULL);
  pthread_cond_init(&pool->done, NULL);
  pool->threads = threads;
  pool->scratch = calloc(threads, sizeof *pool->scratch);
  pool->workers = calloc(threads, sizeof *pool->workers);
  pool->args = calloc(threads, sizeof *pool->args);
  if (!pool->scratch || !pool->workers || !pool->args) { pool_destroy(pool); return NULL; }
  for (int i = 1; i < threads; i++) {
    pool->args[i] = (struct worker_arg){pool, i};
    if (pthread_create(&pool->workers[i], NULL, worker_main, &pool->args[i]) != 0) { pool_destroy(pool); return NULL; }
    pool->started++;
  }
  *ctx = (kernel_context){.threads = threads, .scratch = pool->scratch, .run = pool_run, .pool = pool};
  return pool;
}

void pool_destroy(kernel_pool* pool) {
  if (!pool) return;
  if (pool->workers) {
    pthread_mutex_lock(&pool->mu);
    pool->exit = 1;
    pthread_cond_broadcast(&pool->start);
    pthread_mutex_unlock(&pool->mu);
    for (int i = 1; i <= pool->started; i++) pthread_join(pool->workers[i], NULL);
  }
  for (int i = 0; pool->scratch && i < pool->threads; i++) {
    free(pool->scratch[i].pack);
    free(pool->scratch[i].attention);
    free(pool->scratch[i].rounded);
  }
  free(pool->scratch);
  free(pool->workers);
  free(pool->args);
  pthread_mutex_destroy(&pool->mu);
  pthread_cond_destroy(&pool->start);
  pthread_cond_destroy(&pool->done);
  free(pool);
}
