# common.sh -- sourced by the test scripts after setting $input: where the
# input is ($dir, $name, $ext), the pomp include directory ($include) and
# a scratch directory ($work) removed on exit.  instrument_and_build_orig
# instruments INPUT into $work/inst.$ext (+ companion) and builds the
# original as $work/orig with $fc.
dir=$(cd "$(dirname "$input")" && pwd -P)
name=$(basename "$input")
ext=${name##*.}
include=$(cd "$(dirname "$0")/../../../include" && pwd -P)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# pomp-opari's options: a first line "! opari: OPTIONS" (or "C opari: ")
opts=$(sed -n '1s/^[!cC*] opari: //p' "$input")
instrument_and_build_orig() {
  (cd "$dir" && "$opari" $opts "$name" "$work/inst.$ext") || { echo "FAIL: pomp-opari"; exit 1; }
  "$fc" -fopenmp -J"$work" -o "$work/orig" "$input" || { echo "FAIL: original does not build"; exit 1; }
}
