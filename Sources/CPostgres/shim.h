#ifndef CORKBOARD_CPOSTGRES_SHIM_H
#define CORKBOARD_CPOSTGRES_SHIM_H
// libpq, PostgreSQL's C client (Debian's libpq-dev), driven non-blocking from Dispatch.
#include <libpq-fe.h>
#endif
