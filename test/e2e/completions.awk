# completions.awk -- an oracle for the report's collective completions,
# computed from the trace's own timestamps: each MPI barrier's and N x N
# collective's completion (docs/PROPERTIES.md: me.x - max(earliest x,
# min(latest e, me.x)), if > 0; e and x the call's Enter and Leave),
# summed per call path and location and printed as `pomp-report dump
# --format csv` prints values, a row for every call, zeros included, so
# that each metric it names is checked whole (pomp-e2e-check
# --trace-values).  Instances pair as pomp-analyze pairs them: the k-th
# collective a location runs on a communicator (its MpiCollectiveEnd).
#
#   otf2-print TRACE | awk -v tps=TICKS_PER_SECOND -f completions.awk
function region_name(line) {
  if (!match(line, /Region: ".*" </)) return ""
  return substr(line, RSTART + 9, RLENGTH - 12)
}
function metric(name) {
  if (name == "MPI_Barrier") return "mpi_barrier_completion"
  if (name ~ /^MPI_(Allreduce|Allgatherv?|Alltoall[vw]?|Reduce_scatter(_block)?)$/)
    return "mpi_nxn_completion"
  return ""
}
$1 == "ENTER" {
  d = ++depth[$2]
  stack[$2, d] = region_name($0)
  entered[$2, d] = $3
  path[$2, d] = d > 1 ? path[$2, d - 1] ";" stack[$2, d] : stack[$2, d]
  next
}
$1 == "MPI_COLLECTIVE_END" {
  if (!match($0, /Communicator: ".*" <[0-9]+>/)) next
  comm = substr($0, RSTART, RLENGTH)
  sub(/.*</, "", comm)
  instance[$2, depth[$2]] = comm "," ++count[$2, comm]
  next
}
$1 == "LEAVE" {
  d = depth[$2]
  m = metric(stack[$2, d])
  if (m != "" && ($2, d) in instance) {
    i = instance[$2, d]
    n = ++members[i]
    member_loc[i, n] = $2; member_e[i, n] = entered[$2, d]; member_x[i, n] = $3
    member_path[i, n] = path[$2, d]; member_metric[i, n] = m
    if (!(i in latest) || entered[$2, d] > latest[i]) latest[i] = entered[$2, d]
    if (!(i in earliest_x) || $3 < earliest_x[i]) earliest_x[i] = $3
  }
  delete instance[$2, d]
  depth[$2] = d - 1
}
END {
  for (i in members)
    for (n = 1; n <= members[i]; n++) {
      x = member_x[i, n]
      last = latest[i] < x ? latest[i] : x
      from = earliest_x[i] > last ? earliest_x[i] : last
      loc = member_loc[i, n]
      key = member_metric[i, n] "," member_path[i, n] "," loc % 4294967296 "," int(loc / 4294967296)
      sum[key] += x > from ? (x - from) / tps : 0
    }
  print "metric,callpath,rank,thread,value"
  for (key in sum) printf "%s,%.9g\n", key, sum[key]
}
