// opari: --preprocessed
# 1 "app.c"
# 1 "/usr/lib/gcc/include/omp.h" 1 3 4
typedef struct { int x; } omp_lock_t;
typedef struct { int x; } omp_nest_lock_t;
void omp_set_lock(omp_lock_t *);
static inline void sys_fn(omp_lock_t *l) {
#pragma omp parallel
  omp_set_lock(l);
}
# 2 "app.c" 2
# 1 "inc/user.h" 1
static inline void user_fn(int *a) {
#pragma omp parallel for
  for (int i = 0; i < 4; i++) a[i] = i;
}
# 3 "app.c" 2

int main(void) {
  omp_lock_t l;
  omp_set_lock(&l);
# 10 "app.c"
#pragma omp parallel
  { omp_set_lock(&l); }
#pragma pomp inst begin(tail)
  if (l.x) return 1;
#pragma pomp inst end(tail)
  return 0;
}
# 1 "/pomp/include/pomp.h" 1
struct ompregdescr { int x; };
# 20 "app.c" 2
