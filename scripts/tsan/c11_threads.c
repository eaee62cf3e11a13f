// SPDX-License-Identifier: Apache-2.0
// C11 threads on pthreads, preloaded into test programs run under ThreadSanitizer
// (scripts/tsan.sh). librdkafka starts its threads with thrd_create and locks with mtx_lock;
// glibc implements those without going through the pthread symbols TSan intercepts, so TSan
// never hears of librdkafka's threads (it crashes in its allocator on their first malloc) nor
// of its locks (every hand-over looks like a race). Defined here, the C11 calls become the
// intercepted pthread ones. glibc's mtx_t and cnd_t have pthread's layout.
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <threads.h>

struct start {
  thrd_start_t func;
  void* arg;
};

static void* trampoline(void* p) {
  struct start s = *(struct start*)p;
  free(p);
  return (void*)(intptr_t)s.func(s.arg);
}

static int result(int rc) {
  if (rc == 0) return thrd_success;
  if (rc == EBUSY) return thrd_busy;
  if (rc == ETIMEDOUT) return thrd_timedout;
  if (rc == ENOMEM) return thrd_nomem;
  return thrd_error;
}

int thrd_create(thrd_t* thr, thrd_start_t func, void* arg) {
  struct start* s = malloc(sizeof *s);
  if (!s) return thrd_nomem;
  s->func = func;
  s->arg = arg;
  int rc = pthread_create(thr, NULL, trampoline, s);
  if (rc) free(s);
  return result(rc);
}

int thrd_join(thrd_t thr, int* res) {
  void* r;
  int rc = pthread_join(thr, &r);
  if (rc == 0 && res) *res = (int)(intptr_t)r;
  return result(rc);
}

int thrd_detach(thrd_t thr) { return result(pthread_detach(thr)); }

int mtx_init(mtx_t* m, int type) {
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  if (type & mtx_recursive) pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
  int rc = pthread_mutex_init((pthread_mutex_t*)m, &a);
  pthread_mutexattr_destroy(&a);
  return result(rc);
}
int mtx_lock(mtx_t* m) { return result(pthread_mutex_lock((pthread_mutex_t*)m)); }
int mtx_trylock(mtx_t* m) { return result(pthread_mutex_trylock((pthread_mutex_t*)m)); }
int mtx_timedlock(mtx_t* m, const struct timespec* ts) {
  return result(pthread_mutex_timedlock((pthread_mutex_t*)m, ts));
}
int mtx_unlock(mtx_t* m) { return result(pthread_mutex_unlock((pthread_mutex_t*)m)); }
void mtx_destroy(mtx_t* m) { pthread_mutex_destroy((pthread_mutex_t*)m); }

int cnd_init(cnd_t* c) { return result(pthread_cond_init((pthread_cond_t*)c, NULL)); }
int cnd_signal(cnd_t* c) { return result(pthread_cond_signal((pthread_cond_t*)c)); }
int cnd_broadcast(cnd_t* c) { return result(pthread_cond_broadcast((pthread_cond_t*)c)); }
int cnd_wait(cnd_t* c, mtx_t* m) {
  return result(pthread_cond_wait((pthread_cond_t*)c, (pthread_mutex_t*)m));
}
int cnd_timedwait(cnd_t* c, mtx_t* m, const struct timespec* ts) {
  return result(pthread_cond_timedwait((pthread_cond_t*)c, (pthread_mutex_t*)m, ts));
}
void cnd_destroy(cnd_t* c) { pthread_cond_destroy((pthread_cond_t*)c); }
