/* A unit without OpenMP: the frame alone (an empty descriptor table)
   compiles and registers nothing. */
int plain(int x) { return x + 1; }
