#!/bin/sh
# iowrap_symbols.sh LIBPOMP_IO WRAPPED_TXT: libpomp-io exports __wrap_NAME
# for exactly the NAMEs of wrapped.txt (pomp-cc's --wrap flags), no more.
set -u
lib=$1 list=$2
nm -D --defined-only "$lib" | awk '$3 ~ /^__wrap_/ {sub(/^__wrap_/, "", $3); print $3}' | sort >/tmp/iw_syms.$$
grep -E '^[a-z_0-9]+$' "$list" | sort | diff -u - /tmp/iw_syms.$$
rc=$?
rm -f /tmp/iw_syms.$$
[ $rc = 0 ] && echo ok
exit $rc
