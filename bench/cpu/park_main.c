// For bench/cpu/profile.sh only: valgrind 3.19 crashes (SIGSEGV inside valgrind) when the
// main thread parks the way libdispatch's dispatch_main does it (pthread_exit, then
// sigsuspend in a thread-specific-data destructor). The server has no main-queue work, so
// under valgrind its main thread just waits for signals instead, with this preloaded.
#include <unistd.h>

void dispatch_main(void) {
    for (;;) pause();
}
