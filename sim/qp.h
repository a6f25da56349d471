/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What the QP files of the simulator share: qp.c (commands, contexts),
 * qp_tx.c (sending) and qp_rx.c (receiving).
 */
#ifndef ISIM_QP_H
#define ISIM_QP_H

#include "sim.h"

#define ISIM_SQ_BUDGET		64	/* WQEs per QP per engine step */
#define ISIM_SHORT_MSG		4096	/* bytes a process moves itself */
#define ISIM_MAX_MSG		(64U << 20)
#define ISIM_GRH_SIZE		40
#define ISIM_RNR_DELAY		msecs_to_jiffies(1)
#define ISIM_RNR_FOREVER		7
#define ISIM_QKEY_USE_QP		BIT(31)

/**
 * struct isim_msg - a message on its way to a receive queue
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
struct isim_msg {
	u8 op;
	const u8 *data;
	u32 len;
	bool imm_valid;
	u32 imm;
	u32 inv_stag;
	bool solicited;
	const struct isim_qp *src;
	struct isim_dev *src_dev;
	const struct isim_ah *ah;
};

/*
 * Outcome of one WQE: try again (peer busy, or RNR), wait for what never
 * comes (stall: an iWARP read the peer refused), or the errors.
 */
struct isim_result {
	bool busy;
	bool retry;
	bool stall;
	u16 req_ae;
	u16 resp_ae;
	bool len_valid;
	bool ipv4;
	u32 len;
	int rdma_stat;
};

/*
 * How an SQ is run, and what came of it: @short_only for a process running
 * its own SQ (isim_engine_run_sq()), which leaves WQEs that move much data,
 * setting @backlog; @quick if a WQE run keeps the threads quick to answer
 * (see isim_engine_step()).
 */
struct isim_sq_pass {
	bool short_only;
	bool backlog;
	bool quick;
};

static inline bool isim_valid(u64 word, bool polarity)
{
	return !!(word & IRDMA_WQE_VALID) == polarity;
}

/* qp.c */
int isim_sq_addr(struct isim_dev *sdev, struct isim_qp *qp, u32 idx, u64 *pa);
int isim_rq_addr(struct isim_dev *sdev, struct isim_qp *qp, u32 idx, u64 *pa);
u64 isim_sq_wqe_hdr(struct isim_dev *sdev, struct isim_qp *qp, u32 idx);
void isim_qp_complete(struct isim_dev *sdev, struct isim_qp *qp, bool sq,
		      u64 *cqe, const u64 *ext);
void isim_frag(const __le64 *wqe, u32 k, u64 *addr, u32 *len, u32 *stag);
int isim_wqe_frags(u64 hdr, u32 *frags);

/* qp_tx.c */
struct isim_dev *isim_peer_get(struct isim_dev *self, const u8 *mac);
void isim_peer_put(struct isim_dev *self, struct isim_dev *peer);

/* DDP/RDMAP headers: tagged (write, read response), untagged (send). */
#define ISIM_DDP_TAGGED_HDR	14
#define ISIM_DDP_UNTAGGED_HDR	18

/* iwarp.c */
u16 isim_iwarp_modify(struct isim_dev *sdev, struct isim_qp *qp, u64 hdr,
		      u64 ctx_pa, u8 termlen);
void isim_iwarp_destroy(struct isim_dev *sdev, struct isim_qp *qp, u64 hdr);
void isim_iwarp_sq_empty(struct isim_dev *sdev, struct isim_qp *qp);
bool isim_iwarp_term_tx(struct isim_dev *sdev, struct isim_qp *qp);
int isim_iwarp_lsmm(struct isim_dev *sdev, struct isim_qp *qp, u64 hdr,
		    const void *data, u32 len);
struct isim_dev *isim_iwarp_peer(struct isim_dev *sdev, struct isim_qp *qp,
				 struct isim_qp **dqp, struct isim_result *r, bool term);
void isim_iwarp_carried(struct isim_dev *dst, struct isim_qp *qp, struct isim_qp *dqp,
			u8 op, u32 len, bool answered);
struct tcphdr *isim_iwarp_tcp_hdr(const struct isim_qp *qp, u8 flags, u32 len);
int isim_iwarp_wire_addr(struct isim_dev *sdev, const struct isim_qp *qp,
			 struct isim_wire_addr *a);
void isim_iwarp_give_up(struct isim_qp *qp, struct isim_result *r);
u32 isim_iwarp_stream_len(u32 hdr, u32 len, u16 mss);

/* ieq.c */
bool isim_ieq_hold(struct isim_dev *sdev, struct isim_dev *dst, struct isim_qp *qp,
		   struct isim_qp *dqp, u8 op, const __le64 *wqe,
		   const struct isim_msg *msg, struct isim_result *r);
bool isim_ieq_lpb_rx(struct isim_dev *sdev, struct isim_qp *qp,
		     const struct sk_buff *skb, const struct isim_tcp_frame *f,
		     const struct tcphdr *th, u32 seq, u32 len);
void isim_ieq_release(struct isim_qp *qp);

/* qp_rx.c */
int isim_recv_peek(struct isim_dev *sdev, struct isim_qp *qp, __le64 *wqe,
		   u32 *idx);
void isim_deliver(struct isim_dev *dst, struct isim_qp *qp,
		  const struct isim_msg *msg, struct isim_result *r);
bool isim_ud_deliver(struct isim_dev *dst, u32 qpn, u32 qkey,
		     const struct isim_msg *msg);

#endif /* ISIM_QP_H */
