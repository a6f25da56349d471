// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Instantiates irdma_sim's tracepoints.
 */
#define CREATE_TRACE_POINTS
#include "irdma_sim.h"
#include "trace.h"

/**
 * irdma_sim_trace_ice - record a call the ice personality took
 * @fn: the simulated function's number
 * @call: the ice function's name
 * @a0: its first argument that matters
 * @a1: the second
 * @a2: the third
 * @ret: what it returned
 *
 * The personality cannot include the tracepoints itself: their headers
 * would change the symbol versions of the ice functions it exports,
 * which must be ice's own for Debian's irdma.ko to load.
 */
void irdma_sim_trace_ice(u32 fn, const char *call, u64 a0, u64 a1, u64 a2,
			 int ret)
{
	trace_irdma_sim_ice(fn, call, a0, a1, a2, ret);
}
EXPORT_SYMBOL_GPL(irdma_sim_trace_ice);
