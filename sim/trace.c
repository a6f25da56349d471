// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Instantiates irdma_sim's tracepoints.
 */
#define CREATE_TRACE_POINTS
#include "trace.h"
