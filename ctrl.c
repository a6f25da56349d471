// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The control layer: builds CQP (control QP) commands in the hardware's
 * layout. Every command is a 64-byte WQE whose header quadword, written
 * last, carries the opcode and the valid bit of the current ring pass.
 */
#include <linux/bitfield.h>
#include <linux/errno.h>

#include "main.h"

/**
 * irdma_cqp_wqe_hdr - the header quadword of a CQP command
 * @op: CQP opcode
 * @polarity: valid-bit value of the current pass over the CQP ring
 *
 * Command-specific header fields are or-ed into the returned value.
 *
 * Return: the header in CPU order.
 */
u64 irdma_cqp_wqe_hdr(enum irdma_cqp_opcode op, bool polarity)
{
	return FIELD_PREP(IRDMA_CQPSQ_OPCODE, op) |
	       FIELD_PREP(IRDMA_CQPSQ_WQEVALID, polarity);
}

/**
 * irdma_cqp_wqe_set_hdr - publish a CQP command by writing its header
 * @wqe: the command's 64 bytes, all other fields already written
 * @hdr: header from irdma_cqp_wqe_hdr() plus command fields
 *
 * The hardware owns the WQE from the moment it sees the valid bit, so
 * the body must reach memory first.
 */
void irdma_cqp_wqe_set_hdr(__le64 *wqe, u64 hdr)
{
	dma_wmb();
	WRITE_ONCE(wqe[IRDMA_CQP_WQE_HDR_OFFSET / sizeof(*wqe)],
		   cpu_to_le64(hdr));
}

/**
 * irdma_init_uk_attrs - queue limits of a hardware generation
 * @gen: the generation
 * @attrs: filled with the generation's limits
 *
 * Return: 0, or -EINVAL for an unknown generation.
 */
int irdma_init_uk_attrs(enum irdma_hw_gen gen, struct irdma_uk_attrs *attrs)
{
	switch (gen) {
	case IRDMA_GEN_1:
		*attrs = (struct irdma_uk_attrs) {
			.hw_rev = gen,
			.max_hw_wq_frags = IRDMA_GEN1_MAX_WQ_FRAGS,
			.max_hw_read_sges = IRDMA_GEN1_MAX_READ_SGES,
			.max_hw_inline = IRDMA_GEN1_MAX_INLINE,
			.max_hw_rq_quanta = IRDMA_GEN1_MAX_RQ_QUANTA,
			.max_hw_wq_quanta = IRDMA_GEN1_MAX_WQ_QUANTA,
			.max_hw_sq_chunk = IRDMA_GEN1_MAX_QUANTA_PER_WR,
			.min_hw_wq_size = IRDMA_GEN1_MIN_WQ_SIZE,
			.min_hw_cq_size = IRDMA_MIN_CQ_SIZE,
			.max_hw_cq_size = IRDMA_MAX_CQ_SIZE,
		};
		return 0;
	case IRDMA_GEN_2:
		*attrs = (struct irdma_uk_attrs) {
			.hw_rev = gen,
			.max_hw_wq_frags = IRDMA_GEN2_MAX_WQ_FRAGS,
			.max_hw_read_sges = IRDMA_GEN2_MAX_READ_SGES,
			.max_hw_inline = IRDMA_GEN2_MAX_INLINE,
			.max_hw_rq_quanta = IRDMA_QP_SW_MAX_RQ_QUANTA,
			.max_hw_wq_quanta = IRDMA_QP_SW_MAX_WQ_QUANTA,
			.max_hw_sq_chunk = IRDMA_MAX_QUANTA_PER_WR,
			.min_hw_wq_size = IRDMA_GEN2_MIN_WQ_SIZE,
			.min_hw_cq_size = IRDMA_MIN_CQ_SIZE,
			.max_hw_cq_size = IRDMA_MAX_CQ_SIZE,
		};
		return 0;
	}
	return -EINVAL;
}
