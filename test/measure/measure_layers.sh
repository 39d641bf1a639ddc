#!/bin/bash
# measure_layers.sh OBJECTS: libpomp's files call only files of their own
# layer or below (measure/README.md, "Layers"). OBJECTS: the object files
# of pomp-measure-core, separated by ';' (CMake's $<TARGET_OBJECTS>). Reads
# every object's defined and undefined functions with nm; prints each call
# upwards and exits 1 if there is one, or a file that has no layer.
set -u
IFS=';' read -ra objects <<< "$1"

# Bottom to top. A file calls functions of its own layer and below.
layers=(
  "base: pm_log pm_build pm_config pm_tsc pm_clock pm_experiment pm_coll pm_region pm_comm pm_elf pm_dwarf pm_symbols pm_filter pm_io"
  "event: pm_location pm_event pm_archive pm_room pm_profile pm_tail"
  "trace: pm_unify pm_fragment pm_write pm_peers pm_profile_write"
  "lifecycle: pm_alone pm_signal pm_runtime pm_mpi pm_throttle pm_profile_snapshot"
  "api: pm_descr pm_pomp_parallel pm_pomp_constructs pm_task pm_lock pm_omp_lock pm_fortran pm_user pm_loop"
)
# The calls upwards that remain, none of them on the event path: start-up
# initialises the user-function filter, the end-of-run summary counts
# descriptors and nested regions. "caller callee".
allowed=(
  "pm_runtime pm_user_functions_init"
  "pm_runtime pm_nested_report"
  "pm_mpi pm_nested_report"
  "pm_write pm_registered_descriptors"
  "pm_throttle pm_user_each_throttled"
  "pm_throttle pm_loop_each_throttled"
  "pm_profile_write pm_registered_descriptors"
  "pm_profile pm_profile_snapshots_start"
  "pm_profile_write pm_profile_snapshots_stop"
)

declare -A level name_of
for i in "${!layers[@]}"; do
  for f in ${layers[$i]#*:}; do level[$f]=$i; done
  name_of[$i]=${layers[$i]%%:*}
done

declare -A defined_in
status=0
for o in "${objects[@]}"; do
  f=$(basename "$o" .c.o)
  if [[ -z ${level[$f]+x} ]]; then
    echo "measure_layers: measure/$f.c has no layer (add it to $0 and measure/README.md)"
    status=1
    continue
  fi
  while read -r sym; do defined_in[$sym]=$f; done < <(nm --defined-only -g "$o" | awk '$2 == "T" {print $3}')
done

calls=0
for o in "${objects[@]}"; do
  f=$(basename "$o" .c.o)
  [[ -z ${level[$f]+x} ]] && continue
  while read -r sym; do
    g=${defined_in[$sym]:-}
    [[ -z $g || $g == "$f" ]] && continue
    calls=$((calls + 1))
    (( ${level[$g]} <= ${level[$f]} )) && continue
    [[ " ${allowed[*]/%/,} " == *" $f $sym,"* ]] && continue
    echo "measure_layers: $f.c (${name_of[${level[$f]}]}) calls $sym of $g.c (${name_of[${level[$g]}]}), a layer above it"
    status=1
  done < <(nm -u "$o" | awk '{print $2}' | sort -u)
done
if (( calls == 0 )); then
  echo "measure_layers: no call between files found: wrong objects?"
  exit 1
fi
(( status == 0 )) && echo "measure_layers: ${#objects[@]} files, $calls calls between them, none upwards but the ${#allowed[@]} allowed"
exit $status
