// epoll for the I/O loops and the benchmark's lean clients: Swift's Glibc module leaves <sys/epoll.h> out.
#include <sys/epoll.h>
