// Nothing to compile: the target exists to give Swift <sys/epoll.h> (see include/CEpoll.h).
#include "CEpoll.h"
