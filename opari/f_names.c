/*
 * f_names.c -- the directive name and the clauses of one Fortran OpenMP
 * directive, read against the grammar: a table of directive names (word
 * sequences) and a table of clause keywords.
 *
 * Fixed form: blanks are insignificant everywhere in a directive (after
 * the sentinel), so keywords may be run together (`paralleldo`,
 * `sectionsprivate(x)`, `endsinglecopyprivate(a)`) or split (`par allel`).
 * The text is read without its blanks, longest keyword first, and every
 * span is mapped back to the directive's text, so that a directive is
 * instrumented as its blanked form is.
 *
 * Free form: blanks separate keywords, except that OpenMP 5.0 section
 * 2.1.2 ("Free Source Form Directives"; 5.2: 3.1.2) makes them optional
 * between the adjacent keywords of a directive name: `enddo`,
 * `endparalleldo`, `paralleldo`, `parallelsections`, `endsingle`,
 * `targetenterdata`, `cancellationpoint` (OpenMP 4.5 allowed it only for
 * the combined and END names listed in a table there).  Keywords run
 * together across the end of the name or between clauses
 * (`sectionsprivate(x)`, `canceldo` (`do` is a clause of `cancel`),
 * `untiedmergeable`) are an error, as gfortran makes them.
 */
#include <stdlib.h>
#include <string.h>

#include "f_rw.h"
#include "pomp_util.h"

/* ---- the grammar ------------------------------------------------------- */

typedef struct {
  const char *w[6]; /* its words */
  opf_construct kind;
  int clause_from; /* its words from this one on are a clause (`cancel do`'s
                      construct type), 0: none; free form may run only
                      the words before it together */
} name_entry;

/* Every directive name read (others are unknown: passed, as FC_OTHER). */
static const name_entry names[] = {
    {{"parallel"}, FC_PARALLEL, 0},
    {{"parallel", "do"}, FC_PARALLEL_DO, 0},
    {{"parallel", "do", "simd"}, FC_PARALLEL_DO, 0},
    {{"parallel", "sections"}, FC_PARALLEL_SECTIONS, 0},
    {{"parallel", "workshare"}, FC_PARALLEL_WORKSHARE, 0},
    {{"parallel", "master"}, FC_PARALLEL_MASTER, 0},
    {{"parallel", "masked"}, FC_OTHER, 0},
    {{"parallel", "loop"}, FC_OTHER, 0},
    {{"do"}, FC_DO, 0},
    {{"do", "simd"}, FC_DO, 0},
    {{"sections"}, FC_SECTIONS, 0},
    {{"section"}, FC_SECTION, 0},
    {{"single"}, FC_SINGLE, 0},
    {{"workshare"}, FC_WORKSHARE, 0},
    {{"master"}, FC_MASTER, 0},
    {{"critical"}, FC_CRITICAL, 0},
    {{"atomic"}, FC_ATOMIC, 0},
    {{"barrier"}, FC_BARRIER, 0},
    {{"flush"}, FC_FLUSH, 0},
    {{"ordered"}, FC_ORDERED, 0},
    {{"task"}, FC_TASK, 0},
    {{"taskwait"}, FC_TASKWAIT, 0},
    /* passed: device constructs (f_device.c), the rest unchanged */
    {{"target"}, FC_OTHER, 0},
    {{"target", "data"}, FC_OTHER, 0},
    {{"target", "enter", "data"}, FC_OTHER, 0},
    {{"target", "exit", "data"}, FC_OTHER, 0},
    {{"target", "update"}, FC_OTHER, 0},
    {{"target", "parallel"}, FC_OTHER, 0},
    {{"target", "parallel", "do"}, FC_OTHER, 0},
    {{"target", "parallel", "do", "simd"}, FC_OTHER, 0},
    {{"target", "parallel", "loop"}, FC_OTHER, 0},
    {{"target", "simd"}, FC_OTHER, 0},
    {{"target", "teams"}, FC_OTHER, 0},
    {{"target", "teams", "loop"}, FC_OTHER, 0},
    {{"target", "teams", "distribute"}, FC_OTHER, 0},
    {{"target", "teams", "distribute", "simd"}, FC_OTHER, 0},
    {{"target", "teams", "distribute", "parallel", "do"}, FC_OTHER, 0},
    {{"target", "teams", "distribute", "parallel", "do", "simd"}, FC_OTHER, 0},
    {{"teams"}, FC_OTHER, 0},
    {{"teams", "loop"}, FC_OTHER, 0},
    {{"teams", "distribute"}, FC_OTHER, 0},
    {{"teams", "distribute", "simd"}, FC_OTHER, 0},
    {{"teams", "distribute", "parallel", "do"}, FC_OTHER, 0},
    {{"teams", "distribute", "parallel", "do", "simd"}, FC_OTHER, 0},
    {{"distribute"}, FC_OTHER, 0},
    {{"distribute", "simd"}, FC_OTHER, 0},
    {{"distribute", "parallel", "do"}, FC_OTHER, 0},
    {{"distribute", "parallel", "do", "simd"}, FC_OTHER, 0},
    {{"simd"}, FC_OTHER, 0},
    {{"loop"}, FC_OTHER, 0},
    {{"masked"}, FC_OTHER, 0},
    {{"taskloop"}, FC_OTHER, 0},
    {{"taskloop", "simd"}, FC_OTHER, 0},
    {{"taskgroup"}, FC_OTHER, 0},
    {{"taskyield"}, FC_OTHER, 0},
    {{"taskgraph"}, FC_OTHER, 0},
    {{"scope"}, FC_OTHER, 0},
    {{"threadprivate"}, FC_OTHER, 0},
    {{"declare", "reduction"}, FC_OTHER, 0},
    {{"declare", "simd"}, FC_OTHER, 0},
    {{"declare", "target"}, FC_OTHER, 0},
    {{"declare", "variant"}, FC_OTHER, 0},
    {{"declare", "mapper"}, FC_OTHER, 0},
    {{"cancel", "parallel"}, FC_OTHER, 1},
    {{"cancel", "do"}, FC_OTHER, 1},
    {{"cancel", "sections"}, FC_OTHER, 1},
    {{"cancel", "taskgroup"}, FC_OTHER, 1},
    {{"cancellation", "point", "parallel"}, FC_OTHER, 2},
    {{"cancellation", "point", "do"}, FC_OTHER, 2},
    {{"cancellation", "point", "sections"}, FC_OTHER, 2},
    {{"cancellation", "point", "taskgroup"}, FC_OTHER, 2},
    {{"requires"}, FC_OTHER, 0},
    {{"allocate"}, FC_OTHER, 0},
    {{"allocators"}, FC_OTHER, 0},
    {{"depobj"}, FC_OTHER, 0},
    {{"scan"}, FC_OTHER, 0},
    {{"error"}, FC_OTHER, 0},
    {{"nothing"}, FC_OTHER, 0},
    {{"interop"}, FC_OTHER, 0},
    {{"dispatch"}, FC_OTHER, 0},
    {{"assume"}, FC_OTHER, 0},
    {{"assumes"}, FC_OTHER, 0},
    {{"tile"}, FC_OTHER, 0},
    {{"unroll"}, FC_OTHER, 0},
    {{"metadirective"}, FC_OTHER, 0},
};
enum { NNAMES = sizeof names / sizeof *names };

/* Clause keywords (OpenMP 5.2, Fortran), for fixed form, where a clause
   ends where the next keyword begins.  Kept sorted (clause_word_at). */
static const char *const clause_words[] = {"absent",
                                           "acq_rel",
                                           "acquire",
                                           "adjust_args",
                                           "affinity",
                                           "align",
                                           "aligned",
                                           "allocate",
                                           "allocator",
                                           "append_args",
                                           "at",
                                           "atomic_default_mem_order",
                                           "bind",
                                           "capture",
                                           "collapse",
                                           "compare",
                                           "contains",
                                           "copyin",
                                           "copyprivate",
                                           "default",
                                           "defaultmap",
                                           "depend",
                                           "destroy",
                                           "detach",
                                           "device",
                                           "device_type",
                                           "dist_schedule",
                                           "doacross",
                                           "dynamic_allocators",
                                           "enter",
                                           "exclusive",
                                           "fail",
                                           "filter",
                                           "final",
                                           "firstprivate",
                                           "from",
                                           "full",
                                           "grainsize",
                                           "has_device_addr",
                                           "hint",
                                           "holds",
                                           "if",
                                           "in_reduction",
                                           "inbranch",
                                           "inclusive",
                                           "indirect",
                                           "init",
                                           "is_device_ptr",
                                           "lastprivate",
                                           "linear",
                                           "link",
                                           "map",
                                           "match",
                                           "mergeable",
                                           "message",
                                           "no_openmp",
                                           "no_openmp_routines",
                                           "no_parallelism",
                                           "nocontext",
                                           "nogroup",
                                           "nontemporal",
                                           "notinbranch",
                                           "novariants",
                                           "nowait",
                                           "num_tasks",
                                           "num_teams",
                                           "num_threads",
                                           "order",
                                           "ordered",
                                           "partial",
                                           "priority",
                                           "private",
                                           "proc_bind",
                                           "read",
                                           "reduction",
                                           "relaxed",
                                           "release",
                                           "reverse_offload",
                                           "safelen",
                                           "schedule",
                                           "seq_cst",
                                           "severity",
                                           "shared",
                                           "simd",
                                           "simdlen",
                                           "sizes",
                                           "task_reduction",
                                           "thread_limit",
                                           "threads",
                                           "to",
                                           "unified_address",
                                           "unified_shared_memory",
                                           "uniform",
                                           "untied",
                                           "update",
                                           "use",
                                           "use_device_addr",
                                           "use_device_ptr",
                                           "uses_allocators",
                                           "weak",
                                           "when",
                                           "write",
                                           NULL};

/* ---- the text without blanks ------------------------------------------- */

static bool ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
}

/* Fills fd->sq from fd->clean: blanks and line ends outside quotes go,
   each kept byte remembers its offset and whether blanks preceded it. */
static void squeeze(opf_dir *fd) {
  if (fd->len + 1 > fd->sq_cap) {
    fd->sq_cap = fd->len + 1;
    fd->sq = pu_realloc(fd->sq, fd->sq_cap);
    fd->sq_at = pu_realloc(fd->sq_at, fd->sq_cap * sizeof *fd->sq_at);
    fd->sq_gap = pu_realloc(fd->sq_gap, fd->sq_cap * sizeof *fd->sq_gap);
  }
  size_t k = 0;
  bool gap = true;
  char quote = 0;
  for (size_t i = 0; i < fd->len; i++) {
    char c = fd->clean[i];
    if (!quote && (c == ' ' || c == '\n')) {
      gap = true;
      continue;
    }
    if (quote && c == quote) quote = 0;
    else if (!quote && (c == '\'' || c == '"')) quote = c;
    fd->sq[k] = c;
    fd->sq_at[k] = i;
    fd->sq_gap[k++] = gap;
    gap = false;
  }
  fd->sq[k] = 0;
  fd->sq_at[k] = fd->len;
  fd->sq_gap[k] = true;
  fd->sq_len = k;
}

/* Whether keyword w is at sq[p..): in free form it may not hold blanks. */
static bool keyword_at(const opf_rw *rw, size_t p, const char *w) {
  const opf_dir *fd = &rw->fd;
  size_t k = strlen(w);
  if (fd->sq_len - p < k || memcmp(fd->sq + p, w, k) != 0) return false;
  for (size_t i = p + 1; !rw->fixed && i < p + k; i++)
    if (fd->sq_gap[i]) return false;
  return true;
}

/* Whether sq[p] continues the identifier before it (no blank between). */
static bool glued(const opf_dir *fd, size_t p) {
  return p > 0 && p < fd->sq_len && !fd->sq_gap[p] && ident_char(fd->sq[p - 1]) &&
         ident_char(fd->sq[p]);
}

/* The clean span of sq[p..p+k). */
static op_span span_of(const opf_dir *fd, size_t p, size_t k) {
  return (op_span){fd->sq_at[p], fd->sq_at[p + k - 1] + 1};
}

/* The longest clause keyword at sq[p], or NULL. */
static const char *clause_word_at(const opf_rw *rw, size_t p) {
  const char *best = NULL;
  for (const char *const *w = clause_words; *w; w++) /* sorted: stop past sq[p] */
    if ((*w)[0] > rw->fd.sq[p]) break;
    else if ((*w)[0] == rw->fd.sq[p] && (!best || strlen(*w) > strlen(best)) &&
             keyword_at(rw, p, *w))
      best = *w;
  return best;
}

/* The longest directive-name word at sq[p] that can follow the n words
   `sofar` (of entry `prefix`); NULL if none.  *entry gets the entry it
   continues. */
static const char *name_word_at(const opf_rw *rw, size_t p, const char *const *sofar, int n) {
  const char *best = NULL;
  for (int e = 0; e < NNAMES; e++) {
    const name_entry *ne = &names[e];
    const char *w = ne->w[n];
    if (!w || w[0] != rw->fd.sq[p] || (best && strlen(w) <= strlen(best))) continue;
    bool prefix = true;
    for (int i = 0; i < n && prefix; i++) prefix = strcmp(ne->w[i], sofar[i]) == 0;
    if (prefix && keyword_at(rw, p, w)) best = w;
  }
  return best;
}

/* The entry named by exactly the n words, or NULL. */
static const name_entry *entry_of(const char *const *words, int n) {
  for (int e = 0; e < NNAMES; e++) {
    bool same = n < 6 && !names[e].w[n];
    for (int i = 0; i < n && same; i++)
      same = names[e].w[i] && strcmp(names[e].w[i], words[i]) == 0;
    if (same) return &names[e];
  }
  return NULL;
}

/* ---- free form: run-together keywords ---------------------------------- */

/* Free form, keywords a and b run together at line li: an error naming
   the spec's rule. */
static _Noreturn void run_together(opf_rw *rw, const char *a, const char *b) {
  opf_error(rw, rw->fd.first,
            "'%s' and '%s' run together: free form needs a blank between them (OpenMP "
            "5.0 2.1.2 makes blanks optional only inside a directive name, as in 'enddo' "
            "and 'paralleldo')",
            a, b);
}

/* Free form: a clause name at sq[p] that is a keyword with more keywords
   run on (`nowaitprivate`) is an error. */
static void check_free_clause(opf_rw *rw, size_t p) {
  const char *a = clause_word_at(rw, p);
  if (!a || !glued(&rw->fd, p + strlen(a))) return;
  const char *b = clause_word_at(rw, p + strlen(a));
  if (b) run_together(rw, a, b);
}

/* ---- names --------------------------------------------------------------- */

typedef struct {
  const char *w[6];
  op_span at[6];
  int n;
  size_t pos;          /* sq index after the last word */
  bool glued_words[6]; /* word i was run together with the one before */
} name_match;

/* The longest directive name at sq[p]; m->n == 0 if none. */
static name_match match_name(const opf_rw *rw, size_t p) {
  name_match m = {{0}, {{0, 0}}, 0, p, {0}}, best = m;
  for (;;) {
    const char *w = m.n < 6 ? name_word_at(rw, m.pos, m.w, m.n) : NULL;
    if (!w) break;
    m.glued_words[m.n] = glued(&rw->fd, m.pos);
    m.at[m.n] = span_of(&rw->fd, m.pos, strlen(w));
    m.w[m.n++] = w;
    m.pos += strlen(w);
    if (entry_of(m.w, m.n)) best = m; /* `target enter` alone is no name */
  }
  return best;
}

/* ---- clauses ------------------------------------------------------------- */

/* The first sq index at or after p whose byte lies after clean offset off
   (sq_at ascends: binary search). */
static size_t sq_after(const opf_dir *fd, size_t p, size_t off) {
  size_t hi = fd->sq_len;
  while (p < hi) {
    size_t mid = p + (hi - p) / 2;
    if (fd->sq_at[mid] <= off) p = mid + 1;
    else hi = mid;
  }
  return p;
}

/* Fixed form: the parenthesised argument at sq[p] (critical(name)), then
   the clauses, keyword by keyword.  false with d->error set if malformed. */
static bool fixed_clauses(opf_rw *rw, size_t p, bool paren) {
  opf_dir *fd = &rw->fd;
  op_dir *d = &fd->dir;
  d->nclauses = 0;
  d->has_paren = false;
  if (paren && p < fd->sq_len && fd->sq[p] == '(') {
    size_t close = op_match_paren(fd->clean, fd->len, fd->sq_at[p]);
    if (!close) return (d->error = "unbalanced parentheses in directive"), false;
    d->paren = (op_span){fd->sq_at[p] + 1, close};
    d->has_paren = true;
    d->content_end = close + 1;
    p = sq_after(fd, p, close);
  }
  while (p < fd->sq_len) {
    if (fd->sq[p] == ',') {
      p++;
      continue;
    }
    if (!ident_char(fd->sq[p]) || (fd->sq[p] >= '0' && fd->sq[p] <= '9')) {
      if (d->kind == OP_DIR_UNKNOWN) break; /* passed whole anyway */
      return (d->error = "unexpected character in directive"), false;
    }
    const char *w = clause_word_at(rw, p);
    size_t k = w ? strlen(w) : 0;
    if (!w) /* unknown: its name runs to a parenthesis or comma */
      while (p + k < fd->sq_len && ident_char(fd->sq[p + k])) k++;
    op_clause c = {.name = span_of(fd, p, k), .word = w};
    c.whole = c.name;
    p += k;
    if (p < fd->sq_len && fd->sq[p] == '(') {
      size_t close = op_match_paren(fd->clean, fd->len, fd->sq_at[p]);
      if (!close) return (d->error = "unbalanced parentheses in clause"), false;
      c.args = (op_span){fd->sq_at[p] + 1, close};
      c.has_args = true;
      c.whole.end = close + 1;
      p = sq_after(fd, p, close);
    }
    PU_PUSH(d->clauses, d->nclauses, d->cap, c);
    d->content_end = c.whole.end;
  }
  return true;
}

/* Free form: clause names are identifiers (directive.c); one made of two
   keywords run together is an error. */
static bool free_clauses(opf_rw *rw, size_t p, bool paren, bool known) {
  opf_dir *fd = &rw->fd;
  size_t from = p < fd->sq_len ? fd->sq_at[p] : fd->len;
  if (!op_dir_parse_rest(&fd->dir, fd->clean, fd->len, from, paren)) return false;
  for (size_t i = 0; known && i < fd->dir.nclauses; i++)
    check_free_clause(rw, sq_after(fd, 0, fd->dir.clauses[i].name.start) - 1);
  return true;
}

/* ---- the directive ------------------------------------------------------- */

opf_construct opf_read_names(opf_rw *rw) {
  opf_dir *fd = &rw->fd;
  squeeze(fd);
  size_t p = 0;
  fd->end = keyword_at(rw, 0, "end") && (rw->fixed || !glued(fd, 3) || match_name(rw, 3).n);
  if (fd->end) p = 3;
  name_match m = match_name(rw, p);
  const name_entry *ne = m.n ? entry_of(m.w, m.n) : NULL;
  opf_construct kind = ne ? ne->kind : FC_OTHER;
  if (!rw->fixed && m.n) {
    for (int i = 1; i < m.n; i++)
      if (m.glued_words[i] && ne->clause_from && i >= ne->clause_from)
        run_together(rw, m.w[i - 1], m.w[i]);
    if (glued(fd, m.pos)) { /* `sectionsprivate`: an error, `taskfoo`: unknown */
      const char *b = clause_word_at(rw, m.pos);
      if (b) run_together(rw, m.w[m.n - 1], b);
      m.n = 0;
      m.pos = p;
      kind = FC_OTHER;
    }
  }
  fd->nwords = m.n;
  for (int i = 0; i < m.n; i++) {
    fd->words[i] = m.at[i];
    fd->wordv[i] = m.w[i];
  }
  fd->dir.kind = kind == FC_OTHER ? OP_DIR_UNKNOWN : OP_DIR_PARALLEL; /* strict clause parsing */
  fd->dir.error = NULL;
  bool paren = kind == FC_CRITICAL || kind == FC_FLUSH;
  bool ok = rw->fixed ? fixed_clauses(rw, m.pos, paren) : free_clauses(rw, m.pos, paren, m.n > 0);
  if (!ok && kind != FC_OTHER) opf_error(rw, fd->first, "%s", fd->dir.error);
  return kind;
}

size_t opf_paren_name(const opf_rw *rw, char *buf, size_t size) {
  const opf_dir *fd = &rw->fd;
  size_t k = 0;
  for (size_t i = op_skip_gap(fd->clean, fd->len, fd->dir.paren.start);
       i < fd->dir.paren.end && k + 1 < size; i++) {
    char c = fd->clean[i];
    if (rw->fixed && (c == ' ' || c == '\n')) continue;
    if (!ident_char(c)) break;
    buf[k++] = c;
  }
  buf[k] = 0;
  return k;
}

void opf_dir_free(opf_dir *fd) {
  op_dir_free(&fd->dir);
  free(fd->clean);
  free(fd->sq);
  free(fd->sq_at);
  free(fd->sq_gap);
}
