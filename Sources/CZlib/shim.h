#ifndef CORKBOARD_CZLIB_SHIM_H
#define CORKBOARD_CZLIB_SHIM_H
#include <zlib.h>
#endif
