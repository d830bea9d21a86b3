#ifndef STACKDAY_POSTGRES_SHIM_H
#define STACKDAY_POSTGRES_SHIM_H

#include <libpq-fe.h>

#endif
