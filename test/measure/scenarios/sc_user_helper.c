/* sc_user_helper.c -- the second unit of sc_user: its first function
   begins at the address where sc_user.c's line sequence ends, so a
   reader that takes the end of a sequence for a row puts it in the
   wrong file. */

__attribute__((noinline)) int helper(int x) {
  return x + 1;
}
