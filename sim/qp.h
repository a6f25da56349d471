/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What the QP files of the simulator share: qp.c (commands, contexts),
 * qp_tx.c (sending) and qp_rx.c (receiving).
 */
#ifndef SIM_QP_H
#define SIM_QP_H

#include "sim.h"

#define SIM_SQ_BUDGET		64	/* WQEs per QP per engine step */
#define SIM_SHORT_MSG		4096	/* bytes a process moves itself */
#define SIM_MAX_MSG		(64U << 20)
#define SIM_GRH_SIZE		40
#define SIM_RNR_DELAY		msecs_to_jiffies(1)
#define SIM_RNR_FOREVER		7
#define SIM_QKEY_USE_QP		BIT(31)

/**
 * struct sim_msg - a message on its way to a receive queue
 * @op: the BTH opcode the receive completion reports
 * @data: the payload
 * @len: its length
 * @imm_valid: immediate data comes with it
 * @imm: the immediate data
 * @inv_stag: key to invalidate at the receiver (0 for none)
 * @solicited: the sender asks for a solicited event
 * @src: the sending QP
 * @src_dev: its function
 * @ah: the address handle (UD)
 */
struct sim_msg {
	u8 op;
	const u8 *data;
	u32 len;
	bool imm_valid;
	u32 imm;
	u32 inv_stag;
	bool solicited;
	const struct sim_qp *src;
	struct sim_dev *src_dev;
	const struct sim_ah *ah;
};

/* Outcome of one WQE: try again (peer busy, or RNR), or the errors. */
struct sim_result {
	bool busy;
	bool retry;
	u16 req_ae;
	u16 resp_ae;
	bool len_valid;
	bool ipv4;
	u32 len;
	int rdma_stat;
};

/*
 * How an SQ is run, and what came of it: @short_only for a process running
 * its own SQ (sim_engine_run_sq()), which leaves WQEs that move much data,
 * setting @backlog; @quick if a WQE run keeps the threads quick to answer
 * (see sim_engine_step()).
 */
struct sim_sq_pass {
	bool short_only;
	bool backlog;
	bool quick;
};

static inline bool sim_valid(u64 word, bool polarity)
{
	return !!(word & IRDMA_WQE_VALID) == polarity;
}

/* qp.c */
int sim_sq_addr(struct sim_dev *sdev, struct sim_qp *qp, u32 idx, u64 *pa);
int sim_rq_addr(struct sim_dev *sdev, struct sim_qp *qp, u32 idx, u64 *pa);
u64 sim_sq_wqe_hdr(struct sim_dev *sdev, struct sim_qp *qp, u32 idx);
void sim_qp_complete(struct sim_dev *sdev, struct sim_qp *qp, bool sq,
		     u64 *cqe, const u64 *ext);
void sim_frag(const __le64 *wqe, u32 k, u64 *addr, u32 *len, u32 *stag);
int sim_wqe_frags(u64 hdr, u32 *frags);

/* qp_rx.c */
int sim_recv_peek(struct sim_dev *sdev, struct sim_qp *qp, __le64 *wqe,
		  u32 *idx);
void sim_deliver(struct sim_dev *dst, struct sim_qp *qp,
		 const struct sim_msg *msg, struct sim_result *r);
bool sim_ud_deliver(struct sim_dev *dst, u32 qpn, u32 qkey,
		    const struct sim_msg *msg);

#endif /* SIM_QP_H */
