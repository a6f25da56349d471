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
static inline void isim_trace_qwords(u64 *dst, const __le64 *src, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		dst[i] = le64_to_cpu(src[i]);
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
			   isim_trace_qwords(__entry->q, wqe, 8);
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

TRACE_EVENT(irdma_sim_wqe,
	    TP_PROTO(u32 fn, u32 qpn, const char *queue, bool kernel,
		     const __le64 *wqe, u32 qwords),
	    TP_ARGS(fn, qpn, queue, kernel, wqe, qwords),
	    TP_STRUCT__entry(__field(u32, fn)
			     __field(u32, qpn)
			     __string(queue, queue)
			     __field(bool, kernel)
			     __dynamic_array(u64, q, qwords)),
	    TP_fast_assign(__entry->fn = fn;
			   __entry->qpn = qpn;
			   __assign_str(queue);
			   __entry->kernel = kernel;
			   isim_trace_qwords(__get_dynamic_array(q), wqe, qwords);),
	    TP_printk("fn %u qp %u %s %s %s", __entry->fn, __entry->qpn,
		      __get_str(queue), __entry->kernel ? "kernel" : "user",
		      __print_array(__get_dynamic_array(q),
				    __get_dynamic_array_len(q) / 8, 8))
);

TRACE_EVENT(irdma_sim_qpctx,
	    TP_PROTO(u32 fn, u32 qpn, const __le64 *ctx, u32 qwords),
	    TP_ARGS(fn, qpn, ctx, qwords),
	    TP_STRUCT__entry(__field(u32, fn)
			     __field(u32, qpn)
			     __dynamic_array(u64, q, qwords)),
	    TP_fast_assign(__entry->fn = fn;
			   __entry->qpn = qpn;
			   isim_trace_qwords(__get_dynamic_array(q), ctx, qwords);),
	    TP_printk("fn %u qp %u %s", __entry->fn, __entry->qpn,
		      __print_array(__get_dynamic_array(q),
				    __get_dynamic_array_len(q) / 8, 8))
);

TRACE_EVENT(irdma_sim_ice,
	    TP_PROTO(u32 fn, const char *call, u64 a0, u64 a1, u64 a2, int ret),
	    TP_ARGS(fn, call, a0, a1, a2, ret),
	    TP_STRUCT__entry(__field(u32, fn)
			     __string(call, call)
			     __field(u64, a0)
			     __field(u64, a1)
			     __field(u64, a2)
			     __field(int, ret)),
	    TP_fast_assign(__entry->fn = fn;
			   __assign_str(call);
			   __entry->a0 = a0;
			   __entry->a1 = a1;
			   __entry->a2 = a2;
			   __entry->ret = ret;),
	    TP_printk("fn %u %s %#llx %#llx %#llx -> %d", __entry->fn,
		      __get_str(call), __entry->a0, __entry->a1, __entry->a2,
		      __entry->ret)
);

#endif /* IRDMA_SIM_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
