/* pomp_gcc_plugin.cc -- GCC plugin: user-function instrumentation after
 * inlining, for pomp-cc (see README.md).
 *
 * GCC's -finstrument-functions wraps every function body in the hooks when
 * it is gimplified, before any inlining: an accessor inlined into a hot
 * loop still calls __cyg_profile_func_enter/exit at every use. This plugin
 * adds the same calls in a GIMPLE pass that runs after the IPA inliner and
 * all optimisations (just before the RESX lowering), so only the functions
 * that remain real functions call them, and a function the filter file
 * excludes gets no call at all (it costs nothing at run time).
 *
 *   enter: __cyg_profile_func_enter(&fn, 0) on the edge out of the entry block
 *   exit:  __cyg_profile_func_exit(&fn, 0) before every return, and in a
 *          cleanup landing pad that every exception leaving the function
 *          goes through (then resumes unwinding), so C++ traces stay
 *          balanced when an exception passes through an instrumented function.
 *
 * Arguments (-fplugin-arg-pomp_gcc_plugin-NAME=VALUE):
 *   filter=FILE   the filter file (common/pomp_filter.h, as POMP_FILTER)
 *   verbose=1     one note per function instrumented or excluded
 *   all_functions=1  straight-line leaves too (see straight_line_leaf)
 *   after=PASS    instrument right after GCC pass PASS instead (experiments:
 *                 after=einline is Score-P's placement, see README.md)
 *
 * C++ because GCC's plugin API is C++ (its headers are); the filter rules
 * are common/pomp_filter.c, linked in as C.
 */
/* GCC's headers depend on each other's order: this one is theirs. */
#include "gcc-plugin.h"
#include "plugin-version.h"
#include "tree.h"
#include "tree-pass.h"
#include "context.h"
#include "function.h"
#include "basic-block.h"
#include "cfghooks.h"
#include "cfgloop.h"
#include "tree-ssa-alias.h"
#include "gimple-expr.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"
#include "tree-eh.h"
#include "except.h"
#include "gimple-ssa.h"
#include "tree-ssa-operands.h"
#include "tree-into-ssa.h"
#include "langhooks.h"
#include "stringpool.h"
#include "attribs.h"
#include "diagnostic-core.h"
#include "options.h"
#include "cgraph.h"
#include "hash-set.h"
#include <strings.h>

#include <cxxabi.h>

#include "pomp_filter.h"

int plugin_is_GPL_compatible; /* GCC loads only plugins that say so */

namespace {

pu_filter filter_rules;
bool verbose_notes;
bool all_functions; /* straight-line leaves too */
const char *after_pass; /* experiments: instrument after this pass, not late */
tree enter_hook, exit_hook; /* declared at the first function: trees need the front end */

/* The external void hook(void *fn, void *call_site), declared once. */
tree hook_declaration(const char *name) {
  tree type = build_function_type_list(void_type_node, ptr_type_node, ptr_type_node, NULL_TREE);
  tree decl = build_fn_decl(name, type);
  DECL_ATTRIBUTES(decl) = NULL_TREE;
  TREE_NOTHROW(decl) = 1; /* the hooks never throw: no EH edges for them */
  return decl;
}

gcall *hook_call(tree hook, tree fndecl) {
  return gimple_build_call(hook, 2, build_fold_addr_expr(fndecl), null_pointer_node);
}

/* gfortran's main program is the function MAIN__ whatever the program is
   called; its DECL_NAME keeps the name (`program heat_f`: "heat_f"), which
   Score-P's plugin shows.  NULL for any other function, and where gfortran
   named the program MAIN__ itself (`program main`, or no program
   statement): pomp-opari's companion names a `program main` from its
   source, a program without a statement stays "program"
   (pu_function_name). */
const char *fortran_program_name(tree fndecl) {
  if (strcmp(IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fndecl)), "MAIN__") ||
      strncmp(lang_hooks.name, "GNU Fortran", strlen("GNU Fortran")))
    return NULL;
  const char *name = IDENTIFIER_POINTER(DECL_NAME(fndecl));
  return strcmp(name, "MAIN__") ? name : NULL;
}

/* The name the run time records and filters the function under. */
void function_name(tree fndecl, char *buf, size_t size) {
  const char *program = fortran_program_name(fndecl);
  if (program) {
    snprintf(buf, size, "%s", program);
    return;
  }
  const char *symbol = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fndecl));
  pu_function_name(symbol, abi::__cxa_demangle, buf, size);
}

/* POMP_Fortran_program("name") (pomp.h): the run time, which names
   functions by their symbol, learns the main program's name; inserted on
   the entry edge after the enter hook was, so it runs first. */
void name_fortran_program(function *fun, tree fndecl) {
  const char *name = fortran_program_name(fndecl);
  if (!name) return;
  static tree hook;
  if (!hook) {
    tree type = build_function_type_list(void_type_node, const_ptr_type_node, NULL_TREE);
    hook = build_fn_decl("POMP_Fortran_program", type);
    TREE_NOTHROW(hook) = 1;
  }
  tree text = build_string_literal(strlen(name) + 1, name);
  gsi_insert_on_edge_immediate(single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(fun)),
                               gimple_build_call(hook, 1, text));
}

/* Compiler-made functions (outlined OpenMP bodies, static initialisers,
   thunks), no_instrument_function ones, those of system headers, pomp's
   own (pomp-opari's registration) and those the filter excludes are never
   instrumented. */
bool accepted(tree fndecl) {
  /* (GCC sets DECL_NO_INSTRUMENT_FUNCTION_ENTRY_EXIT on every function once
     gimplified, so the attribute itself is what tells.) */
  if (DECL_ARTIFICIAL(fndecl) || DECL_IN_SYSTEM_HEADER(fndecl) ||
      lookup_attribute("no_instrument_function", DECL_ATTRIBUTES(fndecl)) ||
      lookup_attribute("naked", DECL_ATTRIBUTES(fndecl))) /* no frame to call from */
    return false;
  char name[1024];
  function_name(fndecl, name, sizeof name);
  return strncmp(name, "POMP_", 5) && strncmp(name, "pomp_", 5) &&
         pu_filter_accepts(&filter_rules, name);
}

bool wanted(tree fndecl) {
  bool yes = accepted(fndecl);
  if (verbose_notes && !DECL_ARTIFICIAL(fndecl)) {
    char name[1024];
    function_name(fndecl, name, sizeof name);
    inform(DECL_SOURCE_LOCATION(fndecl), "pomp: %s %qs", yes ? "instrumented" : "excluded", name);
  }
  return yes;
}

/* A leaf of straight-line code: no call but to arithmetic builtins and
   internal functions, no loop. It runs for a bounded, short time (the 5x5 block
   kernels of NPB BT-MZ: 0.1-0.3 us), makes no OpenMP or MPI event, and is
   what an inliner would have inlined had it seen the body in the caller's
   unit: it is not instrumented either (its time is its caller's), unless
   all_functions=1. */
bool inline_arithmetic(gcall *call) {
  /* const or pure builtins (fabs, sqrt without errno, ...) but not those
     that are library calls in disguise (printf, GOMP_parallel, memcpy) */
  return gimple_call_internal_p(call) || (gimple_call_builtin_p(call, BUILT_IN_NORMAL) &&
                                          (gimple_call_flags(call) & (ECF_CONST | ECF_PURE)));
}

bool has_loop(function *fun) {
  mark_dfs_back_edges(fun);
  basic_block bb;
  FOR_EACH_BB_FN(bb, fun) {
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, bb->succs)
    if (e->flags & EDGE_DFS_BACK) return true;
  }
  return false;
}

/* 1 when any call of fun satisfies pred. */
bool any_call(function *fun, bool (*pred)(gcall *)) {
  basic_block bb;
  FOR_EACH_BB_FN(bb, fun)
  for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi))
    if (gcall *call = dyn_cast<gcall *>(gsi_stmt(gsi)))
      if (pred(call)) return true;
  return false;
}

bool library_or_user_call(gcall *call) { return !inline_arithmetic(call); }

/* Not a library function either (malloc, free, printf are builtins). */
bool user_call(gcall *call) {
  return !gimple_call_internal_p(call) && !gimple_call_builtin_p(call, BUILT_IN_NORMAL);
}

bool straight_line_leaf(function *fun) {
  return !any_call(fun, library_or_user_call) && !has_loop(fun);
}

/* A call marked as a tail call (by the "tailc" pass, which ran already)
   may not be followed by the exit hook. */
void clear_tail_calls(function *fun) {
  basic_block bb;
  FOR_EACH_BB_FN(bb, fun)
  for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi))
    if (gcall *call = dyn_cast<gcall *>(gsi_stmt(gsi))) gimple_call_set_tail(call, false);
}

void instrument_returns(function *fun, tree fndecl) {
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE(e, ei, EXIT_BLOCK_PTR_FOR_FN(fun)->preds) {
    gimple_stmt_iterator gsi = gsi_last_bb(e->src);
    if (!gsi_end_p(gsi) && gimple_code(gsi_stmt(gsi)) == GIMPLE_RETURN)
      gsi_insert_before(&gsi, hook_call(exit_hook, fndecl), GSI_SAME_STMT);
  }
}

/* Statements through which an exception leaves the function: a call
   that may throw with no landing pad here, or a RESX that resumes
   unwinding into the caller. */
bool throws_out(function *fun, gimple *stmt) {
  if (lookup_stmt_eh_lp_fn(fun, stmt) != 0) return false; /* caught here, or must not throw */
  return gimple_code(stmt) == GIMPLE_RESX || stmt_could_throw_p(fun, stmt);
}

/* Exceptions: every statement that throws out of the function is given a
   landing pad of a new outermost cleanup region, whose block calls the
   exit hook and resumes unwinding -- what the try/finally of GCC's own
   -finstrument-functions amounts to once EH is lowered. */
void instrument_unwinding(function *fun, tree fndecl) {
  if (!fun->eh) return;
  auto_vec<gimple *> throwers;
  basic_block bb;
  FOR_EACH_BB_FN(bb, fun)
  for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi))
    if (throws_out(fun, gsi_stmt(gsi))) throwers.safe_push(gsi_stmt(gsi));
  if (throwers.is_empty()) return;

  eh_region cleanup = gen_eh_region_cleanup(NULL);
  eh_landing_pad lp = gen_eh_landing_pad(cleanup);
  tree label = create_artificial_label(UNKNOWN_LOCATION);
  lp->post_landing_pad = label;
  EH_LANDING_PAD_NR(label) = lp->index;
  if (!DECL_FUNCTION_PERSONALITY(fndecl))
    DECL_FUNCTION_PERSONALITY(fndecl) = lang_hooks.eh_personality();

  basic_block pad = create_empty_bb(EXIT_BLOCK_PTR_FOR_FN(fun)->prev_bb);
  gimple_stmt_iterator gsi = gsi_start_bb(pad);
  gsi_insert_after(&gsi, gimple_build_label(label), GSI_NEW_STMT);
  gsi_insert_after(&gsi, hook_call(exit_hook, fndecl), GSI_NEW_STMT);
  gsi_insert_after(&gsi, gimple_build_resx(cleanup->index), GSI_NEW_STMT);
  if (current_loops) add_bb_to_loop(pad, current_loops->tree_root);

  for (gimple *stmt : throwers) {
    add_stmt_to_eh_lp(stmt, lp->index);
    basic_block from = gimple_bb(stmt);
    if (stmt != last_stmt(from)) split_block(from, stmt); /* a throwing stmt ends its block */
    make_edge(gimple_bb(stmt), pad, EDGE_EH);
  }
  free_dominance_info(fun, CDI_DOMINATORS);
  free_dominance_info(fun, CDI_POST_DOMINATORS);
}

/* ---------------------------------------------------- the call skeleton

   Instrumenting after inlining alone loses the functions that matter most
   to the analysis when the compiler inlines them: LULESH's
   LagrangeLeapFrog, LagrangeNodal, CalcForceForNodes are `static inline`,
   called once, and vanish into main. So before any inliner decides,
   the functions on a call path to an OpenMP or MPI operation (a call of
   POMP_*, GOMP_*, MPI_* or mpi_*, directly or through such a function)
   are made not inlinable and not clonable, and so are their rarely called
   phases (rarely_called_phase): they stay real functions with their own
   names, and the pass below instruments them. Hot helpers
   called inside the parallel loops make no such calls and are inlined as
   before. The cost is one call per visit of a function that contains or
   leads to a parallel region or an MPI call. */

bool is_anchor(const char *name) {
  return !strncasecmp(name, "POMP_", 5) || !strncasecmp(name, "GOMP_", 5) ||
         !strncasecmp(name, "MPI_", 4);
}

/* The phases of a kept function: a callee with a loop or calls of user
   functions (not just of malloc/free, as LULESH's Allocate<T>), called from the kept function's own code
   (outlined OpenMP bodies are other functions) outside loops or in one
   loop: heat's write_checkpoint, called from solve's time loop; not
   LULESH's per-element helpers, called inside the parallel loops. Decided
   before the early inliner, which would inline a small one (a function
   that only calls another). */
bool rarely_called_phase(cgraph_edge *e, cgraph_node *callee) {
  if (!callee->has_gimple_body_p() || !optimize || !e->call_stmt) return false;
  function *body = DECL_STRUCT_FUNCTION(callee->decl);
  basic_block site = gimple_bb(e->call_stmt);
  return body && body->cfg && site && site->loop_father && loop_depth(site->loop_father) <= 1 &&
         accepted(callee->decl) && (has_loop(body) || any_call(body, user_call));
}

bool calls_anchor(cgraph_node *node) {
  for (cgraph_edge *e = node->callees; e; e = e->next_callee)
    if (is_anchor(IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(e->callee->decl)))) return true;
  return false;
}

void keep_out_of_line(cgraph_node *node) {
  tree decl = node->decl;
  DECL_UNINLINABLE(decl) = 1;
  node->versionable = 0;
  for (const char *attribute : {"noinline", "noclone"})
    if (!lookup_attribute(attribute, DECL_ATTRIBUTES(decl)))
      DECL_ATTRIBUTES(decl) = tree_cons(get_identifier(attribute), NULL_TREE, DECL_ATTRIBUTES(decl));
}

const pass_data skeleton_pass_data = {
    SIMPLE_IPA_PASS, "pomp_skeleton", OPTGROUP_NONE, TV_NONE, 0, 0, 0, 0, 0,
};

class skeleton_pass : public simple_ipa_opt_pass {
public:
  skeleton_pass(gcc::context *ctx) : simple_ipa_opt_pass(skeleton_pass_data, ctx) {}

  unsigned int execute(function *) final override {
    hash_set<cgraph_node *> kept;
    auto_vec<cgraph_node *> work;
    cgraph_node *node;
    FOR_EACH_FUNCTION_WITH_GIMPLE_BODY(node)
    if (calls_anchor(node) && !kept.add(node)) work.safe_push(node);
    while (!work.is_empty()) {
      node = work.pop();
      for (cgraph_edge *e = node->callers; e; e = e->next_caller)
        if (e->caller->has_gimple_body_p() && !kept.add(e->caller)) work.safe_push(e->caller);
    }
    for (cgraph_node *n : kept)
      if (!DECL_ARTIFICIAL(n->decl)) work.safe_push(n); /* not from outlined parallel bodies */
    while (!work.is_empty()) {
      node = work.pop();
      for (cgraph_edge *e = node->callees; e; e = e->next_callee) {
        cgraph_node *callee = e->callee->ultimate_alias_target();
        if (rarely_called_phase(e, callee) && !kept.add(callee)) work.safe_push(callee);
      }
    }
    for (cgraph_node *n : kept)
      if (accepted(n->decl)) keep_out_of_line(n);
    return 0;
  }
};

/* ------------------------------------------------------------ the hooks */

const pass_data instrument_pass_data = {
    GIMPLE_PASS,
    "pomp_instrument",
    OPTGROUP_NONE,
    TV_NONE,
    PROP_gimple_any | PROP_cfg,
    0,
    0,
    0,
    0,
};

class instrument_pass : public gimple_opt_pass {
public:
  instrument_pass(gcc::context *ctx) : gimple_opt_pass(instrument_pass_data, ctx) {}

  unsigned int execute(function *fun) final override {
    tree fndecl = fun->decl;
    if (flag_instrument_function_entry_exit) return 0; /* -finstrument-functions did it */
    if (!all_functions && straight_line_leaf(fun)) {
      if (verbose_notes) inform(DECL_SOURCE_LOCATION(fndecl), "pomp: straight-line leaf, not instrumented");
      return 0;
    }
    if (!wanted(fndecl)) return 0;
    if (!enter_hook) {
      enter_hook = hook_declaration("__cyg_profile_func_enter");
      exit_hook = hook_declaration("__cyg_profile_func_exit");
    }
    clear_tail_calls(fun);
    instrument_unwinding(fun, fndecl);
    instrument_returns(fun, fndecl);
    gsi_insert_on_edge_immediate(single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(fun)),
                                 hook_call(enter_hook, fndecl));
    name_fortran_program(fun, fndecl);
    if (gimple_in_ssa_p(fun)) {
      mark_virtual_operands_for_renaming(fun);
      return TODO_update_ssa_only_virtuals | TODO_cleanup_cfg;
    }
    return TODO_cleanup_cfg;
  }
};

int read_arguments(const char *plugin, plugin_name_args *info) {
  for (int i = 0; i < info->argc; i++) {
    const plugin_argument &a = info->argv[i];
    if (!strcmp(a.key, "filter") && a.value) {
      char why[512];
      if (pu_filter_load(&filter_rules, a.value, why, sizeof why) != 0) {
        error("%s", why);
        return 1;
      }
    } else if (!strcmp(a.key, "after") && a.value) {
      after_pass = a.value;
    } else if (!strcmp(a.key, "all_functions")) {
      all_functions = !a.value || strcmp(a.value, "0");
    } else if (!strcmp(a.key, "verbose")) {
      verbose_notes = !a.value || strcmp(a.value, "0");
    } else {
      error("%s: unknown argument %qs", plugin, a.key);
      return 1;
    }
  }
  return 0;
}

} // namespace

int plugin_init(plugin_name_args *info, plugin_gcc_version *version) {
  if (!plugin_default_version_check(version, &gcc_version)) {
    error("%s: built for GCC %s, not for this compiler (%s)", info->base_name,
          gcc_version.basever, version->basever);
    return 1;
  }
  if (read_arguments(info->base_name, info)) return 1;

  static plugin_info about = {"0.1.0", "pomp: user functions after inlining (pomp-cc)"};
  register_callback(info->base_name, PLUGIN_INFO, NULL, &about);
  struct register_pass_info pass = {new instrument_pass(g), "resx", 1, PASS_POS_INSERT_BEFORE};
  if (after_pass) pass = {pass.pass, after_pass, 1, PASS_POS_INSERT_AFTER};
  register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &pass);
  struct register_pass_info skeleton = {new skeleton_pass(g), "opt_local_passes", 1,
                                        PASS_POS_INSERT_BEFORE};
  register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &skeleton);
  return 0;
}
