/* match_filter FILTER NAME... -- applies a POMP_FILTER file to names the
   way libpomp does (measure/pm_filter.c: fnmatch without flags, the last
   matching rule decides, no match: recorded) and prints "excluded NAME" or
   "recorded NAME" per name: proves that pomp-report score's suggested
   rules exclude exactly the functions it lists, C++ names with glob
   characters included. */
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: match_filter FILTER NAME...\n");
    return 2;
  }
  FILE *f = fopen(argv[1], "r");
  if (!f) {
    perror(argv[1]);
    return 1;
  }
  static char rules[256][512];
  int include[256], n = 0;
  char line[512];
  while (n < 256 && fgets(line, sizeof line, f)) {
    char *hash = strchr(line, '#');
    if (hash) *hash = '\0';
    size_t len = strcspn(line, "\n");
    while (len && line[len - 1] == ' ') len--;
    line[len] = '\0';
    if (strncmp(line, "exclude ", 8) == 0 || strncmp(line, "include ", 8) == 0) {
      include[n] = line[0] == 'i';
      snprintf(rules[n++], sizeof rules[0], "%s", line + 8);
    }
  }
  fclose(f);
  for (int a = 2; a < argc; a++) {
    int recorded = 1;
    for (int i = 0; i < n; i++)
      if (fnmatch(rules[i], argv[a], 0) == 0) recorded = include[i];
    printf("%s %s\n", recorded ? "recorded" : "excluded", argv[a]);
  }
  return 0;
}
