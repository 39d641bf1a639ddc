/* Without preprocessing (pomp-opari on the source, pomp-cc --no-preprocess)
   a directive made by a macro is not seen: a warning where the macro is
   defined, for _Pragma("omp ...") and _Pragma built from the macro's
   parameters; other _Pragma macros are quiet. */
#define PAR _Pragma("omp parallel")
#define OMP(x) _Pragma(#x)
#define REGION_ON \
  _Pragma("pomp inst on")
#define QUIET _Pragma("GCC diagnostic ignored \"-Wunused-variable\"")
void f(int *n) {
  PAR
  { (*n)++; }
}
