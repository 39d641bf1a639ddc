void r(void) {
#pragma pomp inst start
}
