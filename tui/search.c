/* search.c -- a regular expression over the names of all three trees (and
   the descriptions and synonyms of the properties); the hits are
   highlighted and n/N visit them pane by pane, expanding the
   ancestors of each.  Within the call and location panes the heaviest
   hit comes first (its inclusive value in the weighting of the moment,
   the largest magnitude in a difference): "/MPI_Recv" shows the
   receive that costs most, wherever it sits in the tree, as htop's
   search runs down its list sorted by CPU.  Properties stay in catalogue
   order, their values being in different units. */
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "pomp_util.h"

void tui_search_free(tui_search *s) {
  for (int p = 0; p < TUI_NPANES; p++) free(s->match[p]);
  free(s->hits);
  memset(s, 0, sizeof *s);
}

static void detach(tui_app *a) {
  for (int p = 0; p < TUI_NPANES; p++) a->pane[p].match = NULL;
  tui_search_free(&a->search);
}

/* Visits hit i: focus its pane, open its ancestors, select it. */
static void visit(tui_app *a, size_t i) {
  tui_search *s = &a->search;
  s->cur = i;
  const tui_hit *h = &s->hits[i];
  a->focus = h->pane;
  tui_pane_reveal(&a->pane[h->pane], h->node);
  tui_app_message(a, 0, "match %zu of %zu for '%s'", i + 1, s->nhits, s->pattern);
}

/* glibc compiles "x+" as "xx*" and "x{m,n}" as n copies, so a typed
   pattern like "a++++++++++++++++++++" or "(a{99}){99}" would take
   gigabytes; back-references can take exponential time to match.  Such
   patterns are refused (found by the fuzzer). */
static const char *too_complex(const char *pattern) {
  int plus = 0;
  for (const char *s = pattern; *s; s++) {
    if (*s == '{') return "no {m,n} repetition";
    if (*s == '\\' && s[1] >= '1' && s[1] <= '9') return "no back-references";
    if (*s == '\\' && s[1]) s++;
    else if (*s == '+' && ++plus > 4) return "at most four '+'";
  }
  return NULL;
}

/* Words a user searches for that the property names do not contain: what
   the wait states mean in the program (a barrier wait is load imbalance),
   keyed by a part of the property's catalogue name. */
static const struct {
  const char *key, *words;
} synonyms[] = {
    {"barrier_wait", "imbalance load balance idle wait synchronisation synchronization"},
    {"wait_nxn", "imbalance load balance idle wait collective"},
    {"finalize_wait", "imbalance load balance idle wait end"},
    {"early", "imbalance load balance idle wait collective"},
    {"latebroadcast", "imbalance load balance idle wait collective"},
    {"late", "wait idle imbalance load balance point-to-point message"},
    {"idle_threads", "idle serial sequential imbalance"},
    {"limited_parallelism", "idle serial imbalance"},
    {"contention", "contention lock critical wait serialisation serialization"},
    {"taskwait", "wait tasks"},
    {"ordered", "wait serialisation serialization"},
    {"management", "overhead start-up startup"},
    {"io_", "I/O io file read write disk"}, /* not "communication" */
    {"_io", "I/O io file read write disk"},
    {"delay", "cause root cause imbalance"},
};

/* Does property i answer to re: its name on screen, its catalogue name,
   its description or a synonym of what it means. */
static int metric_matches(const pomp_report *r, const tui_tree *t, int32_t i, const regex_t *re) {
  const pomp_metric *m = pomp_report_metric(r, i);
  if (regexec(re, t->name[i], 0, NULL, 0) == 0 || regexec(re, m->name, 0, NULL, 0) == 0) return 1;
  if (m->description && regexec(re, m->description, 0, NULL, 0) == 0) return 1;
  for (size_t k = 0; k < sizeof synonyms / sizeof synonyms[0]; k++)
    if (strstr(m->name, synonyms[k].key) && regexec(re, synonyms[k].words, 0, NULL, 0) == 0)
      return 1;
  return 0;
}

typedef struct {
  double weight;
  int32_t node;
} weighed_hit;

/* Heavier first; equal weights in tree order. */
static int heavier_first(const void *pa, const void *pb) {
  const weighed_hit *a = pa, *b = pb;
  if (a->weight != b->weight) return a->weight > b->weight ? -1 : 1;
  return (a->node > b->node) - (a->node < b->node);
}

/* Orders the hits of pane p that run from hits[first] on, heaviest first. */
static void order_by_weight(tui_search *s, const tui_tree *t, size_t first) {
  size_t n = s->nhits - first;
  weighed_hit *w = pu_malloc(n * sizeof *w + 1);
  for (size_t i = 0; i < n; i++)
    w[i] = (weighed_hit){fabs(t->incl[s->hits[first + i].node]), s->hits[first + i].node};
  qsort(w, n, sizeof *w, heavier_first);
  for (size_t i = 0; i < n; i++) s->hits[first + i].node = w[i].node;
  free(w);
}

void tui_search_run(tui_app *a, const char *pattern) {
  detach(a);
  if (!*pattern) return;
  const char *why = too_complex(pattern);
  if (why) {
    tui_app_message(a, 1, "bad pattern '%s': %s", pattern, why);
    return;
  }
  regex_t re;
  int rc = regcomp(&re, pattern, REG_EXTENDED | REG_ICASE | REG_NOSUB);
  if (rc != 0) {
    char why[128];
    regerror(rc, &re, why, sizeof why);
    tui_app_message(a, 1, "bad pattern '%s': %s", pattern, why);
    return;
  }
  tui_search *s = &a->search;
  snprintf(s->pattern, sizeof s->pattern, "%s", pattern);
  /* Call paths are named by their regions, far fewer than the paths:
     each region is matched once (0 = unknown, 1 = no, 2 = yes). */
  const pomp_report *r = a->model.report;
  uint8_t *region_hit = pu_calloc((size_t)pomp_report_num_regions(r) + 1, 1);
  for (int p = 0; p < TUI_NPANES; p++) {
    const tui_tree *t = &a->model.tree[p];
    size_t first_of_pane = s->nhits;
    s->match[p] = pu_calloc((size_t)t->n, 1);
    for (int32_t i = 0; i < t->n; i++) {
      int hit;
      if (p == TUI_PANE_CALL) {
        uint8_t *known = &region_hit[pomp_report_cnode(r, i)->region];
        if (!*known) *known = regexec(&re, t->name[i], 0, NULL, 0) == 0 ? 2 : 1;
        hit = *known == 2;
      } else if (p == TUI_PANE_METRIC) {
        /* a property the run has none of answers to nothing: "/imbal"
           visits the waits that happened first */
        hit = t->incl[i] != 0 && metric_matches(r, t, i, &re);
      } else {
        hit = regexec(&re, t->name[i], 0, NULL, 0) == 0;
      }
      if (!hit) continue;
      s->match[p][i] = 1;
      tui_hit h = {(int8_t)p, i};
      PU_PUSH(s->hits, s->nhits, s->cap, h);
    }
    if (p != TUI_PANE_METRIC) order_by_weight(s, t, first_of_pane);
    a->pane[p].match = s->match[p];
  }
  regfree(&re);
  free(region_hit);
  if (s->nhits == 0) {
    tui_app_message(a, 1, "no match for '%s'", pattern);
    return;
  }
  /* Start at the first hit in the focused pane, else the first anywhere. */
  size_t first = 0;
  for (size_t i = 0; i < s->nhits; i++)
    if (s->hits[i].pane == a->focus) {
      first = i;
      break;
    }
  visit(a, first);
}

void tui_search_step(tui_app *a, int forward) {
  tui_search *s = &a->search;
  if (s->nhits == 0) {
    tui_app_message(a, 1, "no search - press / to search");
    return;
  }
  visit(a, forward ? (s->cur + 1) % s->nhits : (s->cur + s->nhits - 1) % s->nhits);
}
