void r(void) {
#pragma pomp inst begin(a)
#pragma pomp inst end(b)
}
