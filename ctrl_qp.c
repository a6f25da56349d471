// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The control layer for queue pairs: the host context the hardware reads
 * at CREATE_QP and MODIFY_QP, the commands themselves, flushing, and the
 * scheduler nodes and ARP entries QPs depend on.
 */
#include <kunit/visibility.h>
#include <linux/log2.h>

#include "main.h"

/* Queue sizes: log2 of the ring in quanta, less two. */
static u64 irdma_qp_size_code(u32 quanta)
{
	return ilog2(quanta) - 2;
}

/* The IRD the hardware gives room for, as its encoding of the size. */
static u64 irdma_ird_code(u8 ird)
{
	u32 n = ird ? roundup_pow_of_two(2 * ird) : 4;

	if (n <= 4)
		return 0;
	if (n <= 16)
		return 1;
	if (n <= 64)
		return 2;
	return n <= 128 ? 3 : 4;
}

static void irdma_ctx_ip(__le64 *ctx, int hi_qword, int lo_qword,
			 const u32 *ip)
{
	ctx[hi_qword] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_IPADDR_HI, ip[0]) |
				    FIELD_PREP(IRDMA_QPC_IPADDR_LO, ip[1]));
	ctx[lo_qword] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_IPADDR_HI, ip[2]) |
				    FIELD_PREP(IRDMA_QPC_IPADDR_LO, ip[3]));
}

/* Where the rings are, and their sizes. */
static void irdma_ctx_rings(__le64 *ctx, const struct irdma_qp_hw_info *info)
{
	ctx[1] = cpu_to_le64(info->sq_pa);
	ctx[2] = cpu_to_le64(info->rq_pa);
	ctx[3] |= cpu_to_le64(FIELD_PREP(IRDMA_QPC_RQSIZE,
					 irdma_qp_size_code(info->rq_quanta)) |
			      FIELD_PREP(IRDMA_QPC_SQSIZE,
					 irdma_qp_size_code(info->sq_quanta)));
}

/**
 * irdma_qp_ctx_write - fill a QP's host context (RoCEv2)
 * @ctx: the 256 bytes
 * @info: the QP
 *
 * The whole context is written every time; the hardware reads it at the
 * next CREATE_QP or MODIFY_QP.
 */
void irdma_qp_ctx_write(__le64 *ctx, const struct irdma_qp_hw_info *info)
{
	memset(ctx, 0, IRDMA_QP_CTX_SIZE);
	ctx[0] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_IPV4, info->ipv4) |
			     FIELD_PREP(IRDMA_QPC_INSERTVLANTAG, info->insert_vlan) |
			     FIELD_PREP(IRDMA_QPC_RQWQESIZE, info->rq_shift) |
			     FIELD_PREP(IRDMA_QPC_USE_SRQ, info->use_srq) |
			     FIELD_PREP(IRDMA_QPC_ERR_RQ_IDX_VALID, info->err_rq_idx_valid) |
			     FIELD_PREP(IRDMA_QPC_PPIDX, info->push ? info->push_idx : 0) |
			     FIELD_PREP(IRDMA_QPC_PMENA, info->push) |
			     FIELD_PREP(IRDMA_QPC_PDIDXHI, info->pd >> 16));
	irdma_ctx_rings(ctx, info);
	ctx[3] |= cpu_to_le64(FIELD_PREP(IRDMA_QPC_TTL, info->ttl) |
			      FIELD_PREP(IRDMA_QPC_TOS, info->tos) |
			      FIELD_PREP(IRDMA_QPC_SRCPORTNUM, info->src_port) |
			      FIELD_PREP(IRDMA_QPC_DESTPORTNUM, IRDMA_ROCE_UDP_DPORT));
	irdma_ctx_ip(ctx, 5, 4, info->dest_ip);
	ctx[6] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_SNDMSS, info->mss) |
			     FIELD_PREP(IRDMA_QPC_VLANTAG, info->vlan) |
			     FIELD_PREP(IRDMA_QPC_ARPIDX, info->arp_idx));
	ctx[7] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_FLOWLABEL, info->flow_label) |
			     FIELD_PREP(IRDMA_QPC_ACKCREDITS, 0x1e) |
			     FIELD_PREP(IRDMA_QPC_PKEY, info->pkey) |
			     FIELD_PREP(IRDMA_QPC_PDIDX, info->pd & 0xffff));
	ctx[8] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_DESTQP, info->dest_qp) |
			     FIELD_PREP(IRDMA_QPC_QKEY, info->qkey));
	ctx[10] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_PSNNXT, info->sq_psn) |
			      FIELD_PREP(IRDMA_QPC_LSN, info->sq_psn_set ? 0xffff : 0));
	ctx[11] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_EPSN, info->rq_psn));
	ctx[12] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_PSNMAX, info->sq_psn) |
			      FIELD_PREP(IRDMA_QPC_PSNUNA, info->sq_psn));
	ctx[14] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_CWNDROCE, 0x400));
	ctx[16] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_ERR_RQ_IDX, info->err_rq_idx) |
			      FIELD_PREP(IRDMA_QPC_REXMIT_THRESH, info->retry_cnt) |
			      FIELD_PREP(IRDMA_QPC_RNRNAK_THRESH, info->rnr_retry) |
			      FIELD_PREP(IRDMA_QPC_RTOMIN, 5));
	ctx[17] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_TXCQNUM, info->send_cq) |
			      FIELD_PREP(IRDMA_QPC_RXCQNUM, info->recv_cq));
	ctx[19] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_MACADDR,
					 ether_addr_to_u64(info->mac)));
	ctx[20] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_ORDSIZE, info->ord) |
			      FIELD_PREP(IRDMA_QPC_IRDSIZE, irdma_ird_code(info->ird)) |
			      FIELD_PREP(IRDMA_QPC_UDPRIVCQENABLE, info->kernel) |
			      IRDMA_QPC_WRRDRSPOK | IRDMA_QPC_RDOK | IRDMA_QPC_BINDEN |
			      FIELD_PREP(IRDMA_QPC_FASTREGEN, info->kernel) |
			      FIELD_PREP(IRDMA_QPC_PRIVEN, info->kernel));
	ctx[IRDMA_QPC_COMPL_CTX_QWORD] = cpu_to_le64(info->compl_ctx);
	ctx[22] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_QSHANDLE, info->qs_handle));
	irdma_ctx_ip(ctx, 24, 23, info->src_ip);
	if (info->use_srq)
		ctx[25] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_SRQ_ID, info->srq_id));
	ctx[26] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_REMENDPOINTIDX,
					 info->rem_endpoint));
}
EXPORT_SYMBOL_IF_KUNIT(irdma_qp_ctx_write);

/* The connection's part of an iWARP context: its numbers and addresses. */
static void irdma_qp_ctx_iwarp_tcp(__le64 *ctx, const struct irdma_qp_hw_info *info)
{
	const struct irdma_iwarp_conn *c = info->conn;
	u8 tos = info->tos;

	/* ECN is on: a TOS without ECN bits says ECT(0). */
	if (!(tos & 3))
		tos |= IRDMA_QPC_TOS_ECT0;
	ctx[0] |= cpu_to_le64(FIELD_PREP(IRDMA_QPC_IPV4, info->ipv4) |
			      FIELD_PREP(IRDMA_QPC_INSERTVLANTAG, info->insert_vlan) |
			      IRDMA_QPC_DROPOOOSEG);
	ctx[3] |= cpu_to_le64(FIELD_PREP(IRDMA_QPC_TTL, info->ttl) |
			      FIELD_PREP(IRDMA_QPC_TOS, tos) |
			      FIELD_PREP(IRDMA_QPC_SRCPORTNUM, info->src_port) |
			      FIELD_PREP(IRDMA_QPC_DESTPORTNUM, c->dst_port));
	irdma_ctx_ip(ctx, 5, 4, info->dest_ip);
	ctx[6] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_SNDMSS, info->mss) |
			     FIELD_PREP(IRDMA_QPC_VLANTAG, info->vlan) |
			     FIELD_PREP(IRDMA_QPC_ARPIDX, info->arp_idx));
	ctx[7] |= cpu_to_le64(FIELD_PREP(IRDMA_QPC_FLOWLABEL, info->flow_label) |
			      IRDMA_QPC_WSCALE | IRDMA_QPC_IGNORE_TCP_OPT |
			      IRDMA_QPC_IGNORE_TCP_UNS_OPT |
			      FIELD_PREP(IRDMA_QPC_TCPSTATE, IRDMA_TCP_STATE_ESTABLISHED) |
			      FIELD_PREP(IRDMA_QPC_RCVSCALE, c->rcv_wscale) |
			      FIELD_PREP(IRDMA_QPC_SNDSCALE, c->snd_wscale));
	ctx[10] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_TCP_LO, c->snd_nxt) |
			      FIELD_PREP(IRDMA_QPC_TCP_HI, c->snd_wnd));
	ctx[11] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_TCP_LO, c->rcv_nxt) |
			      FIELD_PREP(IRDMA_QPC_TCP_HI, c->rcv_wnd));
	/* Nothing in flight: the highest sent is the oldest unacknowledged. */
	ctx[12] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_TCP_LO, c->snd_nxt) |
			      FIELD_PREP(IRDMA_QPC_TCP_HI, c->snd_nxt));
	/* No RTT measured yet: its variance 6; congestion window 2 MSS. */
	ctx[13] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_TCP_HI, 6));
	ctx[14] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_TCP_LO, 0x3fffffff) |
			      FIELD_PREP(IRDMA_QPC_TCP_HI, 2 * info->mss));
	/* The last window update: the segment before the hand-over. */
	ctx[15] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_TCP_LO, c->rcv_nxt) |
			      FIELD_PREP(IRDMA_QPC_TCP_HI, c->snd_nxt));
	ctx[16] |= cpu_to_le64(FIELD_PREP(IRDMA_QPC_MAXSNDWND, c->max_snd_wnd) |
			       FIELD_PREP(IRDMA_QPC_REXMIT_THRESH, 8));
	ctx[20] |= cpu_to_le64(FIELD_PREP(IRDMA_QPC_SNDMARKERS, c->snd_markers) |
			       FIELD_PREP(IRDMA_QPC_RCVMARKOFFSET, c->rcv_nxt) |
			       FIELD_PREP(IRDMA_QPC_SNDMARKOFFSET, c->snd_markers ?
					  c->snd_mark_offset : c->snd_nxt));
	irdma_ctx_ip(ctx, 24, 23, info->src_ip);
	ctx[26] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_REMENDPOINTIDX,
					 info->rem_endpoint));
}

/**
 * irdma_qp_ctx_write_iwarp - fill an iWARP QP's host context
 * @ctx: the 256 bytes
 * @info: the QP; with @info->conn, the connection it takes over (at the
 *	move to RTS), else the QP alone (at its creation)
 *
 * DDP and RDMAP version 1, MPA CRCs, ECN, the IEQ for exceptions; reads
 * from the peer allowed (InfiniBand-style read semantics, as on every
 * GEN_2 function), fast registration for kernel QPs.
 */
void irdma_qp_ctx_write_iwarp(__le64 *ctx, const struct irdma_qp_hw_info *info)
{
	memset(ctx, 0, IRDMA_QP_CTX_SIZE);
	ctx[0] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_DDP_VER, 1) |
			     IRDMA_QPC_IBRDENABLE |
			     FIELD_PREP(IRDMA_QPC_RQWQESIZE, info->rq_shift) |
			     IRDMA_QPC_ECN_EN |
			     FIELD_PREP(IRDMA_QPC_ERR_RQ_IDX_VALID, info->err_rq_idx_valid) |
			     FIELD_PREP(IRDMA_QPC_PDIDXHI, info->pd >> 16) |
			     FIELD_PREP(IRDMA_QPC_PPIDX, info->push ? info->push_idx : 0) |
			     FIELD_PREP(IRDMA_QPC_PMENA, info->push) |
			     FIELD_PREP(IRDMA_QPC_RDMAP_VER, 1));
	irdma_ctx_rings(ctx, info);
	ctx[7] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_PDIDX, info->pd & 0xffff));
	ctx[16] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_ERR_RQ_IDX, info->err_rq_idx) |
			      FIELD_PREP(IRDMA_QPC_RTOMIN, 5));
	ctx[17] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_TXCQNUM, info->send_cq) |
			      FIELD_PREP(IRDMA_QPC_RXCQNUM, info->recv_cq));
	ctx[18] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_Q2ADDR, info->q2_pa >> 8));
	ctx[19] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_MACADDR,
					 ether_addr_to_u64(info->mac)));
	ctx[20] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_ORDSIZE, info->ord) |
			      FIELD_PREP(IRDMA_QPC_IRDSIZE, irdma_ird_code(info->ird)) |
			      IRDMA_QPC_WRRDRSPOK | IRDMA_QPC_RDOK | IRDMA_QPC_BINDEN |
			      FIELD_PREP(IRDMA_QPC_FASTREGEN, info->kernel) |
			      FIELD_PREP(IRDMA_QPC_PRIVEN, info->kernel) |
			      IRDMA_QPC_IWARPMODE);
	ctx[IRDMA_QPC_COMPL_CTX_QWORD] = cpu_to_le64(info->compl_ctx);
	ctx[22] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_QSHANDLE, info->qs_handle) |
			      FIELD_PREP(IRDMA_QPC_EXCEPTION_LAN_QUEUE, IRDMA_IEQ_QP_ID));
	if (info->conn)
		irdma_qp_ctx_iwarp_tcp(ctx, info);
}
EXPORT_SYMBOL_IF_KUNIT(irdma_qp_ctx_write_iwarp);

/**
 * irdma_qp_ctx_write_uda - fill a UDA QP's host context (the ILQ's, the
 *	IEQ's)
 * @ctx: the 256 bytes
 * @info: the QP
 *
 * Little more than its rings, CQs and queue set: the largest frame it
 * takes in its MSS, and the privilege that lets its WQEs name physical
 * buffers with STag 0.
 */
void irdma_qp_ctx_write_uda(__le64 *ctx, const struct irdma_qp_hw_info *info)
{
	memset(ctx, 0, IRDMA_QP_CTX_SIZE);
	irdma_ctx_rings(ctx, info);
	ctx[6] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_SNDMSS, info->mss));
	ctx[17] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_TXCQNUM, info->send_cq) |
			      FIELD_PREP(IRDMA_QPC_RXCQNUM, info->recv_cq));
	ctx[20] = cpu_to_le64(IRDMA_QPC_PRIVEN);
	ctx[IRDMA_QPC_COMPL_CTX_QWORD] = cpu_to_le64(info->compl_ctx);
	ctx[22] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_QSHANDLE, info->qs_handle));
}
EXPORT_SYMBOL_IF_KUNIT(irdma_qp_ctx_write_uda);

static u64 irdma_qp_hdr(const struct irdma_qp_hw_info *info)
{
	return FIELD_PREP(IRDMA_QPCMD_QPID, info->id) |
	       FIELD_PREP(IRDMA_QPCMD_QPTYPE, info->type) |
	       FIELD_PREP(IRDMA_QPCMD_VQ, info->vq);
}

/**
 * irdma_build_create_qp - CREATE_QP from the host context
 * @cmd: the command to fill
 * @info: the QP; its context is written already
 *
 * The QP starts idle, with its CQs and source MAC from the context.
 */
void irdma_build_create_qp(struct irdma_cqp_wqe *cmd,
			   const struct irdma_qp_hw_info *info)
{
	irdma_cmd_init(cmd, IRDMA_CQPOP_CREATE_QP);
	cmd->q[2] = info->ctx_pa;
	cmd->q[3] |= irdma_qp_hdr(info) | IRDMA_QPCMD_CQNUMVALID |
		     IRDMA_QPCMD_MACVALID |
		     FIELD_PREP(IRDMA_QPCMD_NEXTIWSTATE, IRDMA_QPS_IDLE);
	cmd->q[5] = info->shadow_pa;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_build_create_qp);

/**
 * irdma_build_create_uda_qp - CREATE_QP for a UDA QP: straight to RTS
 * @cmd: the command to fill
 * @info: the QP; its context is written already
 */
void irdma_build_create_uda_qp(struct irdma_cqp_wqe *cmd,
			       const struct irdma_qp_hw_info *info)
{
	irdma_cmd_init(cmd, IRDMA_CQPOP_CREATE_QP);
	cmd->q[2] = info->ctx_pa;
	cmd->q[3] |= irdma_qp_hdr(info) | IRDMA_QPCMD_CQNUMVALID |
		     FIELD_PREP(IRDMA_QPCMD_NEXTIWSTATE, IRDMA_QPS_RTS);
	cmd->q[5] = info->shadow_pa;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_build_create_uda_qp);

/**
 * irdma_build_modify_qp - MODIFY_QP to a new state
 * @cmd: the command to fill
 * @info: the QP; its context is written already
 * @next_state: enum irdma_qp_hw_state
 * @flags: IRDMA_QPMOD_* context parts to take
 */
void irdma_build_modify_qp(struct irdma_cqp_wqe *cmd,
			   const struct irdma_qp_hw_info *info, u8 next_state,
			   u32 flags)
{
	irdma_cmd_init(cmd, IRDMA_CQPOP_MODIFY_QP);
	cmd->q[2] = info->ctx_pa;
	cmd->q[3] |= irdma_qp_hdr(info) |
		     FIELD_PREP(IRDMA_QPCMD_ARPTABIDXVALID,
				!!(flags & IRDMA_QPMOD_ARP_VALID)) |
		     FIELD_PREP(IRDMA_QPCMD_CQNUMVALID,
				!!(flags & IRDMA_QPMOD_CQ_VALID)) |
		     FIELD_PREP(IRDMA_QPCMD_ORDVALID,
				!!(flags & IRDMA_QPMOD_ORD_VALID)) |
		     FIELD_PREP(IRDMA_QPCMD_TOECTXVALID,
				!!(flags & IRDMA_QPMOD_TCP_VALID)) |
		     FIELD_PREP(IRDMA_QPCMD_RESETCON,
				!!(flags & IRDMA_QPMOD_RESET_CONN)) |
		     FIELD_PREP(IRDMA_QPCMD_REMOVEHASHENTRY,
				!!(flags & IRDMA_QPMOD_DEL_HASH)) |
		     FIELD_PREP(IRDMA_QPCMD_NEXTIWSTATE, next_state);
	cmd->q[5] = info->shadow_pa;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_build_modify_qp);

/**
 * irdma_build_terminate_qp - MODIFY_QP to TERMINATE: what the engine sends
 * @cmd: the command to fill
 * @info: the QP
 * @msg: the TERMINATE message, the first @len bytes of the Q2 buffer
 * @fin: a FIN, after it if both
 * @len: the message's length (four bits)
 *
 * The QP's CQs and ARP entry are named again, as for the other moves an
 * engine's event calls for.
 */
void irdma_build_terminate_qp(struct irdma_cqp_wqe *cmd,
			      const struct irdma_qp_hw_info *info, bool msg, bool fin,
			      u8 len)
{
	enum irdma_term_action act = msg ? (fin ? IRDMA_TERM_SEND_TERM_AND_FIN :
					     IRDMA_TERM_SEND_TERM_ONLY) :
				     (fin ? IRDMA_TERM_SEND_FIN_ONLY : IRDMA_TERM_SEND_NOTHING);

	irdma_build_modify_qp(cmd, info, IRDMA_QPS_TERMINATE,
			      IRDMA_QPMOD_CQ_VALID | IRDMA_QPMOD_ARP_VALID);
	cmd->q[3] |= FIELD_PREP(IRDMA_QPCMD_TERMACT, act);
	if (msg)
		cmd->q[1] |= FIELD_PREP(IRDMA_QPCMD_TERMLEN, len);
}
EXPORT_SYMBOL_IF_KUNIT(irdma_build_terminate_qp);

/**
 * irdma_build_destroy_qp - DESTROY_QP
 * @cmd: the command to fill
 * @info: the QP
 */
void irdma_build_destroy_qp(struct irdma_cqp_wqe *cmd,
			    const struct irdma_qp_hw_info *info)
{
	irdma_cmd_init(cmd, IRDMA_CQPOP_DESTROY_QP);
	cmd->q[2] = info->ctx_pa;
	/* No VQ: the rings are not read again. */
	cmd->q[3] |= FIELD_PREP(IRDMA_QPCMD_QPID, info->id) |
		     FIELD_PREP(IRDMA_QPCMD_QPTYPE, info->type) |
		     IRDMA_QPCMD_REMOVEHASHENTRY;
	cmd->q[5] = info->shadow_pa;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_build_destroy_qp);

/**
 * irdma_build_flush_wqes - FLUSH_WQES: complete a QP's queued work in error
 * @cmd: the command to fill
 * @qp_id: the QP
 * @sq: flush the send queue
 * @rq: flush the receive queue
 * @sq_minor: the flush code the send side's completions carry
 * @rq_minor: the flush code the receive side's completions carry
 */
void irdma_build_flush_wqes(struct irdma_cqp_wqe *cmd, u32 qp_id, bool sq,
			    bool rq, u16 sq_minor, u16 rq_minor)
{
	irdma_cmd_init(cmd, IRDMA_CQPOP_FLUSH_WQES);
	if (sq)
		cmd->q[2] |= FIELD_PREP(IRDMA_FLUSH_SQMINOR, sq_minor) |
			     FIELD_PREP(IRDMA_FLUSH_SQMAJOR, IRDMA_CQE_MAJ_FLUSH);
	if (rq)
		cmd->q[2] |= FIELD_PREP(IRDMA_FLUSH_RQMINOR, rq_minor) |
			     FIELD_PREP(IRDMA_FLUSH_RQMAJOR, IRDMA_CQE_MAJ_FLUSH);
	cmd->q[3] |= FIELD_PREP(IRDMA_QPCMD_QPID, qp_id) |
		     IRDMA_FLUSH_USERFLCODE |
		     FIELD_PREP(IRDMA_FLUSH_SQ, sq) | FIELD_PREP(IRDMA_FLUSH_RQ, rq);
}

/**
 * irdma_build_gen_ae - FLUSH_WQES that flushes nothing and has the
 *	hardware raise an asynchronous event for a QP instead
 * @cmd: the command to fill
 * @qp_id: the QP
 * @ae_code: the event's code
 * @ae_src: its source (IRDMA_AE_SOURCE_*)
 */
void irdma_build_gen_ae(struct irdma_cqp_wqe *cmd, u32 qp_id, u16 ae_code, u8 ae_src)
{
	irdma_cmd_init(cmd, IRDMA_CQPOP_GEN_AE);
	cmd->q[1] = FIELD_PREP(IRDMA_GEN_AE_CODE, ae_code) |
		    FIELD_PREP(IRDMA_GEN_AE_SOURCE, ae_src);
	cmd->q[3] |= FIELD_PREP(IRDMA_QPCMD_QPID, qp_id) | IRDMA_FLUSH_GENERATE_AE;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_build_gen_ae);

/**
 * irdma_build_ws_node - WORK_SCHED_NODE: add, change or drop a node
 * @cmd: the command to fill
 * @op: IRDMA_WS_OP_*
 * @node: the node, as it is to be (a deletion names it as it stands)
 */
void irdma_build_ws_node(struct irdma_cqp_wqe *cmd, u8 op,
			 const struct irdma_ws_node *node)
{
	irdma_cmd_init(cmd, IRDMA_CQPOP_WORK_SCHED_NODE);
	cmd->q[4] = FIELD_PREP(IRDMA_WS_VSI, node->vsi) |
		    FIELD_PREP(IRDMA_WS_WEIGHT, node->weight);
	cmd->q[3] |= FIELD_PREP(IRDMA_WS_NODEID, node->id) |
		     FIELD_PREP(IRDMA_WS_PARENTID, node->parent) |
		     FIELD_PREP(IRDMA_WS_NODEOP, op) |
		     FIELD_PREP(IRDMA_WS_TC, node->tc) |
		     FIELD_PREP(IRDMA_WS_PRIOTYPE, IRDMA_WS_PRIO_WEIGHTED_RR) |
		     FIELD_PREP(IRDMA_WS_LEAF, node->leaf) |
		     FIELD_PREP(IRDMA_WS_ENABLE, node->enable);
}
EXPORT_SYMBOL_IF_KUNIT(irdma_build_ws_node);

/**
 * irdma_build_suspend_qp - SUSPEND_QP: stop a QP's SQ (the hardware
 *	reports it with IRDMA_AE_QP_SUSPEND_COMPLETE)
 * @cmd: the command to fill
 * @qp_id: the QP
 */
void irdma_build_suspend_qp(struct irdma_cqp_wqe *cmd, u32 qp_id)
{
	irdma_cmd_init(cmd, IRDMA_CQPOP_SUSPEND_QP);
	cmd->q[3] |= FIELD_PREP(IRDMA_QPCMD_QPID, qp_id);
}

/**
 * irdma_build_resume_qp - RESUME_QP: a suspended QP sends again
 * @cmd: the command to fill
 * @qp_id: the QP
 * @qs_handle: the queue set it sends through from now on
 */
void irdma_build_resume_qp(struct irdma_cqp_wqe *cmd, u32 qp_id,
			   u16 qs_handle)
{
	irdma_cmd_init(cmd, IRDMA_CQPOP_RESUME_QP);
	cmd->q[2] = FIELD_PREP(IRDMA_CQPSQ_RESUMEQP_QSHANDLE, qs_handle);
	cmd->q[3] |= FIELD_PREP(IRDMA_QPCMD_QPID, qp_id);
}

/**
 * irdma_build_manage_arp - MANAGE_ARP: set or clear an ARP table entry
 * @cmd: the command to fill
 * @idx: the entry
 * @mac: the MAC address it maps to (permanently), or NULL to clear it
 */
void irdma_build_manage_arp(struct irdma_cqp_wqe *cmd, u16 idx, const u8 *mac)
{
	irdma_cmd_init(cmd, IRDMA_CQPOP_MANAGE_ARP);
	cmd->q[3] |= FIELD_PREP(IRDMA_CQPSQ_ARP_INDEX, idx);
	if (!mac)
		return;
	cmd->q[2] = FIELD_PREP(IRDMA_CQPSQ_ARP_MACADDR, ether_addr_to_u64(mac));
	cmd->q[3] |= IRDMA_CQPSQ_ARP_ENTRYVALID | IRDMA_CQPSQ_ARP_PERMANENT;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_build_manage_arp);

/**
 * irdma_build_take_push_page - MANAGE_PUSH_PAGES: take a page
 * @cmd: the command to fill
 * @qs_handle: the queue set the page's WQEs go to
 *
 * The page's index comes back in the completion.
 */
void irdma_build_take_push_page(struct irdma_cqp_wqe *cmd, u16 qs_handle)
{
	irdma_cmd_init(cmd, IRDMA_CQPOP_MANAGE_PUSH_PAGES);
	cmd->q[2] = FIELD_PREP(IRDMA_CQPSQ_MPP_QS_HANDLE, qs_handle);
}

/**
 * irdma_build_give_back_push_page - MANAGE_PUSH_PAGES: give a page back
 * @cmd: the command to fill
 * @qs_handle: the queue set the page was taken for
 * @idx: the page
 */
void irdma_build_give_back_push_page(struct irdma_cqp_wqe *cmd, u16 qs_handle,
				     u32 idx)
{
	irdma_build_take_push_page(cmd, qs_handle);
	cmd->q[3] |= FIELD_PREP(IRDMA_CQPSQ_MPP_PPIDX, idx) |
		     IRDMA_CQPSQ_MPP_FREE_PAGE;
}
