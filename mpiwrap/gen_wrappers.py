#!/usr/bin/env python3
"""gen_wrappers.py -- writes libpomp-mpi's PMPI wrappers from mpi_wrappers.tbl.

usage: gen_wrappers.py TABLE OUT_DIR MPI_HEADER...

The prototypes come from the installed MPI headers (MPICH keeps them in
mpi_proto.h, others in mpi.h), so a wrapper's signature always matches the
MPI library it is built against; the table only says what to record. Writes
OUT_DIR/mw_fn.h (function enum, region table) and OUT_DIR/mw_wrappers.c (the
wrappers), and only rewrites a file whose content changed.
"""
import os
import re
import sys

ROLES = {
    "p2p": "OTF2_REGION_ROLE_POINT2POINT",
    "barrier": "OTF2_REGION_ROLE_BARRIER",
    "one2all": "OTF2_REGION_ROLE_COLL_ONE2ALL",
    "all2one": "OTF2_REGION_ROLE_COLL_ALL2ONE",
    "all2all": "OTF2_REGION_ROLE_COLL_ALL2ALL",
    "other": "OTF2_REGION_ROLE_COLL_OTHER",
    "fn": "OTF2_REGION_ROLE_FUNCTION",
    "io": "OTF2_REGION_ROLE_FILE_IO",
    "iometa": "OTF2_REGION_ROLE_FILE_IO_METADATA",
}


def fail(where, msg):
    sys.stderr.write("%s: %s: error: %s\n" % (os.path.basename(sys.argv[0]), where, msg))
    sys.exit(1)


def read_prototypes(headers):
    """name (without PMPI_) -> (return type, [(declaration, parameter name)])"""
    protos = {}
    pattern = re.compile(r"\b(int|double)\s+PMPI_(\w+)\s*\(([^()]*)\)")
    for path in headers:
        with open(path) as f:
            text = re.sub(r"/\*.*?\*/", " ", f.read(), flags=re.S)
        for ret, name, params in pattern.findall(text):
            params = " ".join(params.split())
            if params in ("", "void") or "..." in params:
                plist = []
            else:
                plist = []
                for p in params.split(","):
                    p = p.strip()
                    m = re.search(r"(\w+)\s*(\[\s*\w*\s*\])*\s*$", p)
                    if not m:
                        fail(path, "cannot parse parameter '%s' of PMPI_%s" % (p, name))
                    plist.append((p, m.group(1)))
            protos.setdefault(name, (ret, plist))
    return protos


def read_table(path):
    """[(name, role, kind, before, after, with_c, line number)], kind being
    "manual", "coll" or "" (the word after ROLE)"""
    rows = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            head, _, after = line.partition("|")
            words = head.split(None, 2)
            if len(words) < 2:
                fail("%s:%d" % (path, number), "expected NAME ROLE [BEFORE] [| AFTER]")
            name, role = words[0], words[1]
            rest = words[2].strip() if len(words) > 2 else ""
            if role not in ROLES:
                fail("%s:%d" % (path, number), "unknown role '%s'" % role)
            kind = rest if rest in ("manual", "coll") else ""
            with_c = name.endswith("+c")
            rows.append((name[:-2] if with_c else name, role, kind,
                         "" if kind else rest, after.strip(), with_c, number))
    return rows


def always(hook):
    """(hook without its "always:" prefix, whether it had it)"""
    if hook.startswith("always:"):
        return hook[len("always:"):].strip(), True
    return hook, False


def wrapper(name, fn, ret, params, before, after, coll):
    decl = ", ".join(p for p, _ in params) or "void"
    args = ", ".join(n for _, n in params)
    # a blocking collective is counted even when not recorded (mw.h)
    begin = "mw_begin_coll(&f, %s, comm)" % fn if coll else "mw_begin(&f, %s)" % fn
    before, before_always = always(before)
    after, after_always = always(after)
    out = ["%s MPI_%s(%s)" % (ret, name, decl), "{",
           "  mw_frame f;"]
    if before_always or after_always:
        # bookkeeping that must not miss a call while recording is off
        out += ["  if (!%s) {" % begin]
        if before_always:
            out.append("    if (mw_live()) { %s; }" % before)
        out.append("    %s mw_rc = PMPI_%s(%s);" % (ret, name, args))
        if after_always:
            out.append("    if (mw_rc == MPI_SUCCESS && mw_live()) { %s; }" % after)
        out += ["    return mw_rc;", "  }"]
    else:
        out += ["  if (!%s)" % begin,
                "    return PMPI_%s(%s);" % (name, args)]
    if before:
        out.append("  %s;" % before)
    out += ["  mw_calling(&f);",
            "  %s mw_rc = PMPI_%s(%s);" % (ret, name, args),
            "  mw_returned(&f);"]
    if after:
        out.append("  if (mw_rc == MPI_SUCCESS) { %s; }" % after)
    out += ["  mw_leave(&f);", "  return mw_rc;", "}", ""]
    return "\n".join(out)


def write_if_changed(path, text):
    if os.path.exists(path):
        with open(path) as f:
            if f.read() == text:
                return
    with open(path, "w") as f:
        f.write(text)


def start(argv, usage):
    """(TABLE, OUT, prototypes of the MPI_HEADERs) of the command line
    "TABLE OUT MPI_HEADER...", or None after printing the usage"""
    if len(argv) < 4:
        sys.stderr.write("usage: %s %s\n" % (os.path.basename(argv[0]), usage))
        return None
    protos = read_prototypes(argv[3:])
    if "Send" not in protos:
        fail(argv[3], "no PMPI_Send prototype found")
    return argv[1], argv[2], protos


def main(argv):
    args = start(argv, "TABLE OUT_DIR MPI_HEADER...")
    if not args:
        return 2
    table, outdir, protos = args

    regions = []   # (enum name, MPI name, role)
    wrappers = []
    seen = set()
    for name, role, kind, before, after, with_c, number in read_table(table):
        for n in [name, name + "_c"] if with_c else [name]:
            if n in seen:
                fail("%s:%d" % (table, number), "MPI_%s listed twice" % n)
            seen.add(n)
            if n not in protos and kind != "manual":
                continue   # not in this MPI version (a manual wrapper says itself)
            fn = "MW_FN_" + n
            regions.append((fn, "MPI_" + n, ROLES[role]))
            if kind != "manual":
                ret, params = protos[n]
                if kind == "coll" and "comm" not in [p for _, p in params]:
                    fail("%s:%d" % (table, number), "MPI_%s has no comm parameter" % n)
                wrappers.append(wrapper(n, fn, ret, params, before, after, kind == "coll"))

    header = ["/* mw_fn.h -- generated by gen_wrappers.py from mpi_wrappers.tbl;",
              "   do not edit. One entry per wrapped MPI function. */",
              "#ifndef MW_FN_H", "#define MW_FN_H", "", "enum mw_fn {"]
    header += ["  %s," % fn for fn, _, _ in regions]
    header += ["  MW_FN_COUNT", "};", "", "#endif", ""]

    source = ["/* mw_wrappers.c -- generated by gen_wrappers.py from",
              "   mpi_wrappers.tbl; do not edit. */",
              '#include "mw.h"', "",
              "const mw_fn_info mw_fn_table[MW_FN_COUNT] = {"]
    source += ['  [%s] = {"%s", %s},' % r for r in regions]
    source += ["};", ""] + wrappers

    os.makedirs(outdir, exist_ok=True)
    write_if_changed(os.path.join(outdir, "mw_fn.h"), "\n".join(header))
    write_if_changed(os.path.join(outdir, "mw_wrappers.c"), "\n".join(source))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
