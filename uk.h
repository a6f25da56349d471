/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Queue-level definitions shared by the kernel data path: ring
 * bookkeeping and work queue sizing. Nothing here knows about ib_core.
 */
#ifndef IRDMA_UK_H
#define IRDMA_UK_H

#include <linux/bits.h>
#include <linux/types.h>

#include "hwdefs.h"

/**
 * struct irdma_ring - producer/consumer indices of a circular queue
 * @head: next slot the producer fills
 * @tail: next slot the consumer takes
 * @size: number of slots; one always stays empty to tell full from empty
 */
struct irdma_ring {
	u32 head;
	u32 tail;
	u32 size;
};

/**
 * struct irdma_uk_attrs - queue limits of one hardware generation
 * @hw_rev: generation of the engine
 * @max_hw_wq_frags: scatter/gather entries a send or receive WQE takes
 * @max_hw_read_sges: scatter entries an RDMA read takes
 * @max_hw_inline: bytes of inline data a send WQE takes
 * @max_hw_rq_quanta: largest receive queue, in quanta
 * @max_hw_wq_quanta: largest send queue, in quanta
 * @max_hw_sq_chunk: quanta one work request may use
 * @min_hw_wq_size: smallest work queue, in WQEs
 * @min_hw_cq_size: smallest completion queue, in CQEs
 * @max_hw_cq_size: largest completion queue, in CQEs
 * @max_hw_srq_quanta: largest shared receive queue, in quanta (0: none)
 * @feature_flags: IRDMA_FEATURE_* the generation has
 */
struct irdma_uk_attrs {
	enum irdma_hw_gen hw_rev;
	u32 max_hw_wq_frags;
	u32 max_hw_read_sges;
	u32 max_hw_inline;
	u32 max_hw_rq_quanta;
	u32 max_hw_wq_quanta;
	u32 max_hw_sq_chunk;
	u32 min_hw_wq_size;
	u32 min_hw_cq_size;
	u32 max_hw_cq_size;
	u32 max_hw_srq_quanta;
	u64 feature_flags;
};

#define IRDMA_FEATURE_RTS_AE		BIT_ULL(0)
#define IRDMA_FEATURE_CQ_RESIZE		BIT_ULL(1)
#define IRDMA_FEATURE_SRQ		BIT_ULL(7)

static inline void irdma_ring_init(struct irdma_ring *ring, u32 size)
{
	ring->head = 0;
	ring->tail = 0;
	ring->size = size;
}

static inline u32 irdma_ring_used(const struct irdma_ring *ring)
{
	return ring->head >= ring->tail ? ring->head - ring->tail :
					  ring->size - ring->tail + ring->head;
}

static inline u32 irdma_ring_free(const struct irdma_ring *ring)
{
	return ring->size - 1 - irdma_ring_used(ring);
}

static inline bool irdma_ring_empty(const struct irdma_ring *ring)
{
	return ring->head == ring->tail;
}

int irdma_init_uk_attrs(enum irdma_hw_gen gen, struct irdma_uk_attrs *attrs);
int irdma_ring_produce(struct irdma_ring *ring, u32 count, u32 spare,
		       u32 *first);
int irdma_ring_consume(struct irdma_ring *ring, u32 count);

u8 irdma_wqe_shift(const struct irdma_uk_attrs *attrs, u32 sges,
		   u32 inline_bytes);
int irdma_sq_depth(const struct irdma_uk_attrs *attrs, u32 wrs, u8 shift,
		   u32 *depth);
int irdma_rq_depth(const struct irdma_uk_attrs *attrs, u32 wrs, u8 shift,
		   u32 *depth);
int irdma_srq_depth(const struct irdma_uk_attrs *attrs, u32 wrs, u8 shift,
		    u32 *depth);
int irdma_sq_frags_to_quanta(u32 frags, u16 *quanta);
u16 irdma_inline_to_quanta(enum irdma_hw_gen gen, u32 bytes);

/**
 * struct irdma_uk_cq - a completion ring as its consumer sees it
 * @ring: the 32-byte slots
 * @size: slots in the ring
 * @head: next slot to look at
 * @polarity: valid bit of the current pass
 * @shadow: the CQ's shadow area (consumer index, arm word)
 * @id: CQ number, for the arm doorbell
 * @arm_db: the CQARM register
 * @srq_cqes: the engine has shared receive queues, whose completions say
 *	so in a bit other engines leave undefined
 */
struct irdma_uk_cq {
	__le64 *ring;
	u32 size;
	u32 head;
	bool polarity;
	__le64 *shadow;
	u32 id;
	u32 __iomem *arm_db;
	bool srq_cqes;
};

/**
 * struct irdma_cqe_info - one completion, decoded
 * @qp_ctx: the QP's completion context (0: the CQE was cleaned)
 * @qp_id: the QP's number
 * @bytes: bytes received (receive completions)
 * @stag_or_src_qp: invalidated STag, or a UD sender's QP number
 * @stag_valid: @stag_or_src_qp is an invalidated STag (RC receives)
 * @ipv4: a UD packet came with an IPv4 header (else IPv6)
 * @major: major error code
 * @minor: minor error code (a flush code when @major is a flush)
 * @wqe_idx: the WQE's first quantum in its queue
 * @error: the work failed or was flushed
 * @solicited: the sender asked for a solicited event
 * @is_sq: a send queue completion (else receive)
 * @op: the work's opcode (enum irdma_wqe_op)
 * @imm_valid: @imm carries immediate data
 * @imm: the immediate data
 * @smac_valid: @smac is the UD sender's MAC
 * @smac: UD sender's MAC address
 * @vlan_valid: @vlan is the UD packet's VLAN tag
 * @vlan: the VLAN tag (PCP and VID)
 * @slots: ring slots the completion takes (2 when extended)
 * @srq: a receive whose WQE came from a shared receive queue; @qp_ctx
 *	holds that WQE's wr_id
 */
struct irdma_cqe_info {
	u64 qp_ctx;
	u32 qp_id;
	u32 bytes;
	u32 stag_or_src_qp;
	bool stag_valid;
	bool ipv4;
	u16 major;
	u16 minor;
	u32 wqe_idx;
	bool error;
	bool solicited;
	bool is_sq;
	u8 op;
	bool imm_valid;
	u32 imm;
	bool smac_valid;
	u8 smac[6];
	bool vlan_valid;
	u16 vlan;
	u8 slots;
	bool srq;
};

void irdma_uk_cq_init(struct irdma_uk_cq *cq, void *ring, u32 size,
		      __le64 *shadow, u32 id, u32 __iomem *arm_db);
int irdma_uk_cq_peek(const struct irdma_uk_cq *cq, struct irdma_cqe_info *info);
void irdma_uk_cq_advance(struct irdma_uk_cq *cq, u32 slots);
void irdma_uk_cq_reuse(struct irdma_uk_cq *cq, u32 wqe_idx);
void irdma_uk_cq_arm(struct irdma_uk_cq *cq, bool solicited_only);
void irdma_uk_cq_add_resized(struct irdma_uk_cq *cq, u32 count);
u32 irdma_uk_cq_clean(struct irdma_uk_cq *cq, u64 qp_ctx, u32 qp_id);

/**
 * struct irdma_sq_wr - what the send queue remembers of a posted WQE
 * @wr_id: the consumer's id
 * @bytes: bytes the work moves
 * @op: opcode (enum irdma_wqe_op)
 * @quanta: ring quanta the WQE takes
 * @signaled: a completion was asked for
 */
struct irdma_sq_wr {
	u64 wr_id;
	u32 bytes;
	u8 op;
	u8 quanta;
	bool signaled;
};

/**
 * struct irdma_uk_qp - a QP's work queues as their producer sees them
 * @sq: the send queue's quanta
 * @sq_ring: its indices, in quanta
 * @sq_polarity: valid bit of the SQ's current pass
 * @sq_wr: per SQ quantum, the WQE starting there
 * @rq: the receive queue's quanta
 * @rq_ring: its indices, in WQEs
 * @rq_polarity: valid bit of the RQ's current pass
 * @rq_shift: an RQ WQE is 1 << @rq_shift quanta
 * @rq_wr_id: per RQ WQE, the consumer's id
 * @shadow: the QP's shadow area (SQ head for the hardware)
 * @id: QP number, for the doorbell
 * @db: the WQEALLOC doorbell register
 * @max_sq_frags: gather entries a send WQE may carry
 * @max_rq_frags: scatter entries a receive WQE may carry
 * @max_inline: inline bytes a send WQE may carry
 * @ud: the QP is unreliable datagram (or GSI)
 * @db_head: SQ head at the last doorbell decision
 */
struct irdma_uk_qp {
	__le64 *sq;
	struct irdma_ring sq_ring;
	bool sq_polarity;
	struct irdma_sq_wr *sq_wr;
	__le64 *rq;
	struct irdma_ring rq_ring;
	bool rq_polarity;
	u8 rq_shift;
	u64 *rq_wr_id;
	__le64 *shadow;
	u32 id;
	u32 __iomem *db;
	u32 max_sq_frags;
	u32 max_rq_frags;
	u32 max_inline;
	bool ud;
	u32 db_head;
};

/**
 * struct irdma_sge - one gather or scatter element
 * @addr: device address (or, for inline data, kernel address)
 * @len: bytes
 * @stag: the memory's key; 0 for the local DMA key
 */
struct irdma_sge {
	u64 addr;
	u32 len;
	u32 stag;
};

/**
 * struct irdma_sq_post - one send-side work request in hardware terms
 * @wr_id: the consumer's id
 * @op: opcode (enum irdma_wqe_op), solicited variants included
 * @signaled: a completion is wanted
 * @read_fence: wait for earlier reads to finish
 * @local_fence: wait for all earlier work to finish
 * @inline_data: copy the data into the WQE
 * @imm_valid: @imm is carried
 * @imm: immediate data, host order
 * @rem_stag: the remote key (RDMA) or the key to invalidate (send)
 * @rem_addr: remote address (RDMA)
 * @ah_id: address handle (UD)
 * @dest_qpn: destination QP (UD)
 * @qkey: destination Q_Key (UD)
 * @sg: the data
 * @num_sg: entries in @sg
 */
struct irdma_sq_post {
	u64 wr_id;
	u8 op;
	bool signaled;
	bool read_fence;
	bool local_fence;
	bool inline_data;
	bool imm_valid;
	u32 imm;
	u32 rem_stag;
	u64 rem_addr;
	u32 ah_id;
	u32 dest_qpn;
	u32 qkey;
	const struct irdma_sge *sg;
	u32 num_sg;
};

/**
 * struct irdma_mw_bind - a type 1 memory window binding
 * @wr_id: the consumer's id
 * @signaled: a completion is wanted
 * @mw_stag: the window's key after the binding
 * @mr_stag: the region it is bound in
 * @va: its first byte (windows are VA-based)
 * @len: its length
 * @rights: its remote rights (IRDMA_MR_RIGHT_REMOTE_*)
 */
struct irdma_mw_bind {
	u64 wr_id;
	bool signaled;
	u32 mw_stag;
	u32 mr_stag;
	u64 va;
	u64 len;
	u8 rights;
};

/**
 * struct irdma_fast_reg - a fast-register work request
 * @wr_id: the consumer's id
 * @signaled: a completion is wanted
 * @read_fence: wait for earlier reads to finish
 * @stag: the key the region gets
 * @va: the region's first byte
 * @len: its length
 * @rights: access rights (IRDMA_MR_RIGHT_*)
 * @page_size: enum irdma_page_size
 * @first_pble: index of the page list's first PBLE (or root)
 * @first_page: address of the region's first page
 * @pbl_levels: 0 for a single page, else 1 or 2
 */
struct irdma_fast_reg {
	u64 wr_id;
	bool signaled;
	bool read_fence;
	u32 stag;
	u64 va;
	u64 len;
	u8 rights;
	u8 page_size;
	u32 first_pble;
	u64 first_page;
	u8 pbl_levels;
};

void irdma_uk_qp_conn_wqes(struct irdma_uk_qp *qp, u32 count);
void irdma_uk_qp_init(struct irdma_uk_qp *qp);
int irdma_uk_post_sq(struct irdma_uk_qp *qp, const struct irdma_sq_post *p);
int irdma_uk_post_local_inv(struct irdma_uk_qp *qp, u64 wr_id, u32 stag,
			    bool signaled, bool fence);
int irdma_uk_post_mw_bind(struct irdma_uk_qp *qp, const struct irdma_mw_bind *b);
int irdma_uk_post_fast_reg(struct irdma_uk_qp *qp,
			   const struct irdma_fast_reg *fr);
int irdma_uk_post_rq(struct irdma_uk_qp *qp, u64 wr_id,
		     const struct irdma_sge *sg, u32 num_sg);
void irdma_uk_sq_ring_db(struct irdma_uk_qp *qp);

/**
 * struct irdma_uk_srq - a shared receive queue as its producer sees it
 * @ring: the WQEs
 * @idx: producer and consumer indices, in WQEs
 * @polarity: valid bit of the current pass
 * @shift: log2 of a WQE's quanta
 * @max_frags: fragments a WQE takes
 * @shadow: the shadow area; qword 0 tells the hardware the producer index
 */
struct irdma_uk_srq {
	__le64 *ring;
	struct irdma_ring idx;
	bool polarity;
	u8 shift;
	u32 max_frags;
	__le64 *shadow;
};

void irdma_uk_srq_init(struct irdma_uk_srq *srq, void *ring, u32 size,
		       u8 shift, u32 max_frags, __le64 *shadow);
int irdma_uk_post_srq(struct irdma_uk_srq *srq, u64 wr_id,
		      const struct irdma_sge *sg, u32 num_sg);

#endif /* IRDMA_UK_H */
