/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Tracepoints of irdma_sim: every CQP command the engine executes, with
 * its fields and its outcome, and every register write the engine takes.
 * Both drivers' conversations with the simulated E810 can so be recorded
 * and compared (/sys/kernel/tracing/events/irdma_sim/).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM irdma_sim

#if !defined(IRDMA_SIM_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define IRDMA_SIM_TRACE_H

#include <linux/tracepoint.h>

#ifndef IRDMA_SIM_TRACE_HELPERS
#define IRDMA_SIM_TRACE_HELPERS
static inline void sim_trace_wqe(u64 *dst, const __le64 *wqe)
{
	int i;

	for (i = 0; i < 8; i++)
		dst[i] = le64_to_cpu(wqe[i]);
}
#endif

TRACE_EVENT(irdma_sim_cqp,
	    TP_PROTO(u32 fn, u32 idx, const __le64 *wqe, u16 maj, u16 min,
		     u32 ret),
	    TP_ARGS(fn, idx, wqe, maj, min, ret),
	    TP_STRUCT__entry(__field(u32, fn)
			     __field(u32, idx)
			     __array(u64, q, 8)
			     __field(u16, maj)
			     __field(u16, min)
			     __field(u32, ret)),
	    TP_fast_assign(__entry->fn = fn;
			   __entry->idx = idx;
			   sim_trace_wqe(__entry->q, wqe);
			   __entry->maj = maj;
			   __entry->min = min;
			   __entry->ret = ret;),
	    TP_printk("fn %u wqe %u op %#llx q0 %#llx q1 %#llx q2 %#llx hdr %#llx q4 %#llx q5 %#llx q6 %#llx q7 %#llx -> %#x/%#x ret %#x",
		      __entry->fn, __entry->idx,
		      (__entry->q[3] >> 32) & 0x3f, __entry->q[0],
		      __entry->q[1], __entry->q[2],
		      __entry->q[3] & ~(1ULL << 63), __entry->q[4],
		      __entry->q[5], __entry->q[6], __entry->q[7],
		      __entry->maj, __entry->min, __entry->ret)
);

TRACE_EVENT(irdma_sim_reg,
	    TP_PROTO(u32 fn, u32 reg, u32 val),
	    TP_ARGS(fn, reg, val),
	    TP_STRUCT__entry(__field(u32, fn)
			     __field(u32, reg)
			     __field(u32, val)),
	    TP_fast_assign(__entry->fn = fn;
			   __entry->reg = reg;
			   __entry->val = val;),
	    TP_printk("fn %u reg %#x = %#x", __entry->fn, __entry->reg,
		      __entry->val)
);

#endif /* IRDMA_SIM_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
