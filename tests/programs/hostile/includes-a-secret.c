/* Makes the compiler read a file outside the sandbox: its first line
   would be in the compiler's messages, in the student's feedback. */
#include "@OUTSIDE@/secret.txt"
int main(void) { return 0; }
