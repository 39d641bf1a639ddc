/* fixture.c -- see fixture.h. */
#include "fixture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const fixture_cell fixture_cells[] = {
    {0, 0, 0, 0.5},  {1, 1, 0, 4.0},   {1, 1, 1, 3.0},  {1, 1, 2, 2.0},
    {1, 1, 3, 1.0},  {2, 2, 0, 0.25},  {2, 2, 3, 0.75}, {3, 2, 1, 1.5},
    {3, 2, 2, 2.5},  {3, 3, 0, 0.125}, {4, 0, 0, 1.0},  {4, 1, 0, 10.0},
    {4, 1, 1, 10.0}, {4, 1, 2, 10.0},  {4, 1, 3, 10.0}, {4, 2, 3, 7.0},
};
const int fixture_ncells = (int)(sizeof fixture_cells / sizeof fixture_cells[0]);

pomp_report *fixture_new(void) {
  pomp_report *r = pomp_report_new();
  int32_t time = pomp_report_add_metric(r, "time", "Time", POMP_UNIT_SEC, "all", -1);
  pomp_report_add_metric(r, "comp", "Computation", POMP_UNIT_SEC, "", time);
  int32_t mpi = pomp_report_add_metric(r, "mpi", "MPI", POMP_UNIT_SEC, "", time);
  pomp_report_add_metric(r, "mpi_latesender", "Late Sender", POMP_UNIT_SEC, "", mpi);
  pomp_report_add_metric(r, "visits", "Visits", POMP_UNIT_OCC, "", -1);
  int32_t main_ = pomp_report_add_region(r, "main", "a.c", 1, 40, "user", "function");
  int32_t solve = pomp_report_add_region(r, "solve", "a.c", 50, 90, "user", "function");
  int32_t recv = pomp_report_add_region(r, "MPI_Recv", "", 0, 0, "mpi", "point2point");
  int32_t c0 = pomp_report_add_cnode(r, main_, -1);
  int32_t c1 = pomp_report_add_cnode(r, solve, c0);
  pomp_report_add_cnode(r, recv, c1);
  pomp_report_add_cnode(r, recv, c0);
  int32_t machine = pomp_report_add_sysnode(r, POMP_SYS_MACHINE, "cluster", -1, -1, -1);
  int32_t node = pomp_report_add_sysnode(r, POMP_SYS_NODE, "n01", machine, -1, -1);
  for (int rank = 0; rank < 2; rank++) {
    char name[32];
    snprintf(name, sizeof name, "rank %d", rank);
    int32_t p = pomp_report_add_sysnode(r, POMP_SYS_PROCESS, name, node, rank, -1);
    for (int t = 0; t < 2; t++) {
      snprintf(name, sizeof name, "thread %d", t);
      pomp_report_add_sysnode(r, POMP_SYS_THREAD, name, p, rank, t);
    }
  }
  pomp_report_set_attr(r, "application", "fixture");
  pomp_report_set_attr(r, "ranks", "2");
  for (int i = 0; i < fixture_ncells; i++) {
    const fixture_cell *c = &fixture_cells[i];
    pomp_report_add_value(r, c->metric, c->cnode, c->location, c->value);
  }
  return r;
}

char *fixture_tmpname(const char *tag) {
  static int serial;
  const char *dir = getenv("TMPDIR");
  char *buf = malloc(512);
  snprintf(buf, 512, "%s/pomp-test-%ld-%d-%s.pomp", dir ? dir : "/tmp", (long)getpid(), serial++,
           tag);
  return buf;
}

static void assert_same_defs(const pomp_report *a, const pomp_report *b) {
  assert_int_equal(pomp_report_num_metrics(a), pomp_report_num_metrics(b));
  for (int32_t i = 0; i < pomp_report_num_metrics(a); i++) {
    const pomp_metric *x = pomp_report_metric(a, i), *y = pomp_report_metric(b, i);
    assert_string_equal(x->name, y->name);
    assert_string_equal(x->display, y->display);
    assert_string_equal(x->description, y->description);
    assert_int_equal(x->unit, y->unit);
    assert_int_equal(x->parent, y->parent);
  }
  assert_int_equal(pomp_report_num_regions(a), pomp_report_num_regions(b));
  for (int32_t i = 0; i < pomp_report_num_regions(a); i++) {
    const pomp_region *x = pomp_report_region(a, i), *y = pomp_report_region(b, i);
    assert_string_equal(x->name, y->name);
    assert_string_equal(x->file, y->file);
    assert_string_equal(x->paradigm, y->paradigm);
    assert_string_equal(x->role, y->role);
    assert_int_equal(x->begin_line, y->begin_line);
    assert_int_equal(x->end_line, y->end_line);
  }
  assert_int_equal(pomp_report_num_cnodes(a), pomp_report_num_cnodes(b));
  for (int32_t i = 0; i < pomp_report_num_cnodes(a); i++) {
    assert_int_equal(pomp_report_cnode(a, i)->region, pomp_report_cnode(b, i)->region);
    assert_int_equal(pomp_report_cnode(a, i)->parent, pomp_report_cnode(b, i)->parent);
  }
  assert_int_equal(pomp_report_num_sysnodes(a), pomp_report_num_sysnodes(b));
  for (int32_t i = 0; i < pomp_report_num_sysnodes(a); i++) {
    const pomp_sysnode *x = pomp_report_sysnode(a, i), *y = pomp_report_sysnode(b, i);
    assert_string_equal(x->name, y->name);
    assert_int_equal(x->kind, y->kind);
    assert_int_equal(x->parent, y->parent);
    assert_int_equal(x->rank, y->rank);
    assert_int_equal(x->thread, y->thread);
    assert_int_equal(x->location, y->location);
  }
  assert_int_equal(pomp_report_num_locations(a), pomp_report_num_locations(b));
  assert_int_equal(pomp_report_num_attrs(a), pomp_report_num_attrs(b));
  for (int32_t i = 0; i < pomp_report_num_attrs(a); i++) {
    const char *k = pomp_report_attr_key(a, i);
    assert_string_equal(k, pomp_report_attr_key(b, i));
    assert_string_equal(pomp_report_attr(a, k), pomp_report_attr(b, k));
  }
}

void fixture_assert_same(const pomp_report *a, const pomp_report *b) {
  assert_same_defs(a, b);
  int64_t rows = pomp_report_num_rows(a);
  assert_int_equal(rows, pomp_report_num_rows(b));
  size_t nloc = (size_t)pomp_report_num_locations(a) + 1;
  int32_t *la = malloc(nloc * sizeof *la), *lb = malloc(nloc * sizeof *lb);
  double *va = malloc(nloc * sizeof *va), *vb = malloc(nloc * sizeof *vb);
  for (int64_t i = 0; i < rows; i++) {
    int32_t ma, ca, na, mb, cb, nb;
    double sa, sb;
    assert_true(pomp_report_row_at(a, i, &ma, &ca, &na, &sa));
    assert_true(pomp_report_row_at(b, i, &mb, &cb, &nb, &sb));
    assert_int_equal(ma, mb);
    assert_int_equal(ca, cb);
    assert_int_equal(na, nb);
    assert_memory_equal(&sa, &sb, sizeof sa);
    assert_int_equal(pomp_report_row_get(a, ma, ca, la, va, NULL), na);
    assert_int_equal(pomp_report_row_get(b, mb, cb, lb, vb, NULL), nb);
    assert_memory_equal(la, lb, (size_t)na * sizeof *la);
    assert_memory_equal(va, vb, (size_t)na * sizeof *va);
  }
  free(la);
  free(lb);
  free(va);
  free(vb);
}

pomp_report *fixture_round_trip(const pomp_report *r) {
  char *path = fixture_tmpname("rt");
  pomp_report_error err;
  assert_int_equal(pomp_report_write(r, path, &err), POMP_REPORT_OK);
  pomp_report *back = pomp_report_open(path, &err);
  if (!back) fail_msg("%s", err.message);
  remove(path);
  free(path);
  return back;
}
