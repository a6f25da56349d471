// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The privileged UDA queues of an iWARP function: the ILQ, through which
 * the connection manager sends and receives its TCP segments, and the
 * IEQ, where the hardware puts segments of offloaded streams it could not
 * place. Each is a UDA QP (QP type 2) with a CQ of the same number, made
 * straight to RTS. Receive buffers are posted once and posted again in
 * the same slot after use, with the slot's valid bit flipped: a UDA RQ
 * has no doorbell, the hardware takes WQEs by their valid bit. A send
 * copies the segment (from its TCP header on) into a transmit buffer; the
 * hardware puts the Ethernet and IP headers in front from the AH the WQE
 * names.
 */
#include <kunit/visibility.h>

#include "main.h"
#include "uk.h"

/* What a receive buffer holds in front of the TCP header (GEN_2). */
#define IRDMA_PUDA_TCP_OFFSET	40
/* The ILQ's buffers: a connection manager's segment. */
#define IRDMA_ILQ_BUF_SIZE	1024
/* The most a buffer chunk holds (order 4): many buffers, small blocks. */
#define IRDMA_PUDA_CHUNK_BYTES	SZ_64K
/* The IEQ's buffers: a frame of the MTU and room for the IPv4 padding. */
#define IRDMA_IEQ_BUF_PAD	20
/* The IEQ's transmit buffers, whatever the queue's size. */
#define IRDMA_IEQ_TX_BUFS	4096
/* The largest SQ and RQ of a PUDA queue. */
#define IRDMA_PUDA_MAX_SIZE	32768

static struct irdma_puda *irdma_puda_of(struct irdma_fn *fn, u32 id)
{
	if (fn->ilq && fn->ilq->id == id)
		return fn->ilq;
	if (fn->ieq && fn->ieq->id == id)
		return fn->ieq;
	return NULL;
}

static int irdma_puda_bufs_alloc(struct irdma_fn *fn, struct irdma_puda_bufs *b,
				 u32 count, u32 buf_size)
{
	u32 i;
	int err;

	b->per_chunk = max_t(u32, 1, IRDMA_PUDA_CHUNK_BYTES / buf_size);
	b->chunks = DIV_ROUND_UP(count, b->per_chunk);
	b->chunk = kcalloc(b->chunks, sizeof(*b->chunk), GFP_KERNEL);
	if (!b->chunk)
		return -ENOMEM;
	for (i = 0; i < b->chunks; i++) {
		u32 n = min(b->per_chunk, count - i * b->per_chunk);

		err = irdma_dma_alloc(fn, &b->chunk[i], (size_t)n * buf_size, GFP_KERNEL);
		if (err)
			return err;
	}
	return 0;
}

static void irdma_puda_bufs_release(struct irdma_fn *fn, struct irdma_puda_bufs *b,
				    bool hw_done)
{
	u32 i;

	for (i = 0; b->chunk && i < b->chunks; i++)
		irdma_dma_release(fn, &b->chunk[i], hw_done);
	kfree(b->chunk);
	b->chunk = NULL;
}

static void *irdma_puda_buf_va(const struct irdma_puda *q,
			       const struct irdma_puda_bufs *b, u32 i)
{
	return b->chunk[i / b->per_chunk].va + (size_t)(i % b->per_chunk) * q->buf_size;
}

static dma_addr_t irdma_puda_buf_pa(const struct irdma_puda *q,
				    const struct irdma_puda_bufs *b, u32 i)
{
	return b->chunk[i / b->per_chunk].pa + (u64)(i % b->per_chunk) * q->buf_size;
}

static __le64 *irdma_puda_sq_wqe(struct irdma_puda *q, u32 idx)
{
	return q->qp_mem.va + (size_t)idx * IRDMA_WQE_QUANTUM_SIZE;
}

static __le64 *irdma_puda_rq_wqe(struct irdma_puda *q, u32 idx)
{
	return q->qp_mem.va + (size_t)(q->size + idx) * IRDMA_WQE_QUANTUM_SIZE;
}

/* Hand receive slot @idx (back) to the hardware, its valid bit flipped. */
static void irdma_puda_post_recv(struct irdma_puda *q, u32 idx)
{
	__le64 *wqe = irdma_puda_rq_wqe(q, idx);
	bool valid = !test_bit(idx, q->rq_valid);
	u64 valid_bit = FIELD_PREP(IRDMA_WQE_VALID, valid);

	wqe[0] = cpu_to_le64(irdma_puda_buf_pa(q, &q->rx, idx));
	wqe[1] = cpu_to_le64(FIELD_PREP(IRDMA_WQE_FRAG_LEN, q->buf_size) | valid_bit);
	wqe[2] = 0;
	dma_wmb();
	WRITE_ONCE(wqe[3], cpu_to_le64(valid_bit));
	__assign_bit(idx, q->rq_valid, valid);
}

static void irdma_puda_receive(struct irdma_puda *q,
			       const struct irdma_cqe_info *info)
{
	struct irdma_puda_rx rx = {
		.ipv4 = info->ipv4,
		.vlan_valid = info->vlan_valid,
		.vlan = info->vlan,
	};
	u32 idx = info->wqe_idx;

	if (idx >= q->size)
		return;
	if (!info->error && info->bytes >= IRDMA_PUDA_TCP_OFFSET &&
	    info->bytes <= q->buf_size && info->smac_valid) {
		rx.data = irdma_puda_buf_va(q, &q->rx, idx);
		rx.len = info->bytes;
		ether_addr_copy(rx.smac, info->smac);
		q->stats.rx++;
		q->receive(q, &rx);
	} else {
		q->stats.rx_errors++;
	}
	irdma_puda_post_recv(q, idx);
}

/* A send completed: its buffer is free again. */
static void irdma_puda_sent(struct irdma_puda *q, const struct irdma_cqe_info *info)
{
	unsigned long flags;

	spin_lock_irqsave(&q->lock, flags);
	/* Every send is signalled: completions come in the SQ's order. */
	if (info->wqe_idx == q->sq.tail && !irdma_ring_empty(&q->sq)) {
		q->tx_free[q->tx_free_count++] = q->sq_buf[info->wqe_idx];
		irdma_ring_consume(&q->sq, 1);
	} else {
		q->stats.tx_errors++;
	}
	if (info->error)
		q->stats.tx_errors++;
	spin_unlock_irqrestore(&q->lock, flags);
}

/**
 * irdma_puda_ceq_event - a CEQ named a PUDA queue's CQ: take what it holds
 * @fn: the function
 * @ctx: the CQ context the CEQE carried
 *
 * Context: the CEQ's interrupt thread.
 */
void irdma_puda_ceq_event(struct irdma_fn *fn, u64 ctx)
{
	struct irdma_cqe_info info;
	struct irdma_puda *q;

	mutex_lock(&fn->puda_lock);
	q = irdma_puda_of(fn, FIELD_GET(IRDMA_PUDA_CQ_ID, ctx));
	if (!q)
		goto out;
	/* Taken: until the hardware hears so, the CQ gets no other event. */
	irdma_wr32(fn, IRDMA_PFPE_CQACK, q->id);
	while (!irdma_uk_cq_peek(&q->cq, &info)) {
		if (info.is_sq)
			irdma_puda_sent(q, &info);
		else
			irdma_puda_receive(q, &info);
		irdma_uk_cq_advance(&q->cq, info.slots);
	}
	irdma_uk_cq_arm(&q->cq, false);
out:
	mutex_unlock(&fn->puda_lock);
}
EXPORT_SYMBOL_IF_KUNIT(irdma_puda_ceq_event);

/**
 * irdma_puda_send_parts - send a segment, its header and its data apart,
 *	through a PUDA queue
 * @q: the queue
 * @ah_id: the address handle the hardware builds the headers from
 * @hdr: the TCP header
 * @l4_len: its length (a multiple of 4)
 * @data: what follows it
 * @len: its length
 *
 * Both are copied into one transmit buffer: the caller keeps them.
 *
 * Return: 0; -EINVAL for a segment the buffers cannot hold or a bad
 * header length; -EBUSY while every buffer or SQ slot is in flight (a
 * lost segment, to the caller's retransmission).
 */
int irdma_puda_send_parts(struct irdma_puda *q, u32 ah_id, const void *hdr,
			  u32 l4_len, const void *data, u32 len)
{
	unsigned long flags;
	u32 idx, buf;
	__le64 *wqe;
	void *va;
	u64 wqe_hdr;

	if (l4_len < 20 || l4_len % 4 || len > q->buf_size || l4_len > q->buf_size - len)
		return -EINVAL;
	spin_lock_irqsave(&q->lock, flags);
	if (!q->tx_free_count || irdma_ring_produce(&q->sq, 1, 0, &idx)) {
		q->stats.tx_busy++;
		spin_unlock_irqrestore(&q->lock, flags);
		return -EBUSY;
	}
	if (!idx)
		q->sq_polarity = !q->sq_polarity;
	buf = q->tx_free[--q->tx_free_count];
	q->sq_buf[idx] = buf;
	va = irdma_puda_buf_va(q, &q->tx, buf);
	memcpy(va, hdr, l4_len);
	if (len)
		memcpy(va + l4_len, data, len);

	wqe = irdma_puda_sq_wqe(q, idx);
	wqe[0] = cpu_to_le64(irdma_puda_buf_pa(q, &q->tx, buf));
	wqe[1] = cpu_to_le64(FIELD_PREP(IRDMA_WQE_FRAG_LEN, l4_len + len) |
			     FIELD_PREP(IRDMA_WQE_VALID, q->sq_polarity));
	wqe[2] = 0;
	wqe_hdr = FIELD_PREP(IRDMA_WQE_OPCODE, IRDMA_WQEOP_SEND) |
		  FIELD_PREP(IRDMA_WQE_UDA_L4LEN, l4_len / 4) |
		  FIELD_PREP(IRDMA_WQE_AHID, ah_id) | IRDMA_WQE_SIGCOMPL |
		  FIELD_PREP(IRDMA_WQE_VALID, q->sq_polarity);
	/* The buffer and the WQE are written before the hardware sees it. */
	dma_wmb();
	WRITE_ONCE(wqe[3], cpu_to_le64(wqe_hdr));
	/* writel() orders the WQE's writes before the doorbell. */
	irdma_wr32(q->fn, IRDMA_PFPE_WQEALLOC, q->id);
	q->stats.tx++;
	spin_unlock_irqrestore(&q->lock, flags);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_puda_send_parts);

/**
 * irdma_puda_send - send a segment through a PUDA queue
 * @q: the queue
 * @ah_id: the address handle the hardware builds the headers from
 * @data: the segment, from its TCP header on
 * @len: its length
 * @l4_len: its TCP header's length (a multiple of 4)
 *
 * The segment is copied: the caller keeps @data.
 *
 * Return: as irdma_puda_send_parts().
 */
int irdma_puda_send(struct irdma_puda *q, u32 ah_id, const void *data, u32 len,
		    u32 l4_len)
{
	if (l4_len > len)
		return -EINVAL;
	return irdma_puda_send_parts(q, ah_id, data, l4_len, data + l4_len, len - l4_len);
}
EXPORT_SYMBOL_IF_KUNIT(irdma_puda_send);

static int irdma_puda_alloc(struct irdma_fn *fn, struct irdma_puda *q)
{
	size_t qp_bytes = 2 * (size_t)q->size * IRDMA_WQE_QUANTUM_SIZE +
			  IRDMA_QP_CTX_SIZE + IRDMA_QP_SHADOW_SIZE;
	size_t cq_bytes = (size_t)q->cq_size * IRDMA_CQE_SIZE + IRDMA_CQ_SHADOW_SIZE;
	u32 i;

	q->sq_buf = kcalloc(q->size, sizeof(*q->sq_buf), GFP_KERNEL);
	q->tx_free = kcalloc(q->tx_bufs, sizeof(*q->tx_free), GFP_KERNEL);
	q->rq_valid = bitmap_zalloc(q->size, GFP_KERNEL);
	if (!q->sq_buf || !q->tx_free || !q->rq_valid)
		return -ENOMEM;
	for (i = 0; i < q->tx_bufs; i++)
		q->tx_free[i] = q->tx_bufs - 1 - i;
	q->tx_free_count = q->tx_bufs;
	return irdma_dma_alloc(fn, &q->qp_mem, qp_bytes, GFP_KERNEL) ?:
	       irdma_dma_alloc(fn, &q->cq_mem, cq_bytes, GFP_KERNEL) ?:
	       irdma_puda_bufs_alloc(fn, &q->rx, q->size, q->buf_size) ?:
	       irdma_puda_bufs_alloc(fn, &q->tx, q->tx_bufs, q->buf_size);
}

static int irdma_puda_create_cq(struct irdma_fn *fn, struct irdma_puda *q)
{
	struct irdma_cq_hw_info *hw = &q->cq_hw;
	struct irdma_cqp_wqe cmd;
	int err;

	*hw = (struct irdma_cq_hw_info) {
		.id = q->id,
		.size = q->cq_size,
		.ctx = IRDMA_PUDA_CQ_CTX_FLAG | FIELD_PREP(IRDMA_PUDA_CQ_ID, q->id),
		.ring_pa = q->cq_mem.pa,
		.shadow_pa = q->cq_mem.pa + (u64)q->cq_size * IRDMA_CQE_SIZE,
		.ceq_id = 0,
		.ceq_valid = true,
		.ceqe_mask = true,
		/* A quarter of the ring, not the verbs CQs' half. */
		.shadow_threshold = min_t(u32, q->cq_size / 4, IRDMA_MAX_CQ_READ_THRESH),
		.vsi = fn->res.vsi_num,
	};
	irdma_build_create_cq(&cmd, hw);
	err = irdma_cqp_exec(fn, &cmd, NULL);
	if (err)
		return err;
	irdma_uk_cq_init(&q->cq, q->cq_mem.va, q->cq_size,
			 q->cq_mem.va + (size_t)q->cq_size * IRDMA_CQE_SIZE, q->id,
			 (u32 __iomem *)(fn->hw + IRDMA_PFPE_CQARM));
	q->hw_cq = true;
	return 0;
}

static int irdma_puda_create_qp(struct irdma_fn *fn, struct irdma_puda *q)
{
	size_t rings = 2 * (size_t)q->size * IRDMA_WQE_QUANTUM_SIZE;
	struct irdma_qp_hw_info *hw = &q->hw;
	struct irdma_cqp_wqe cmd;
	int err;

	err = irdma_ws_puda_join(fn, q);
	if (err)
		return err;
	*hw = (struct irdma_qp_hw_info) {
		.id = q->id,
		.type = IRDMA_QP_TYPE_UDA,
		.sq_pa = q->qp_mem.pa,
		.rq_pa = q->qp_mem.pa + rings / 2,
		.ctx_pa = q->qp_mem.pa + rings,
		.shadow_pa = q->qp_mem.pa + rings + IRDMA_QP_CTX_SIZE,
		.sq_quanta = q->size,
		.rq_quanta = q->size,
		.send_cq = q->id,
		.recv_cq = q->id,
		.compl_ctx = IRDMA_PUDA_CQ_CTX_FLAG | FIELD_PREP(IRDMA_PUDA_CQ_ID, q->id),
		.qs_handle = q->qs_handle,
		.kernel = true,
		.mss = q->buf_size,
	};
	irdma_qp_ctx_write_uda(q->qp_mem.va + rings, hw);
	irdma_build_create_uda_qp(&cmd, hw);
	err = irdma_cqp_exec(fn, &cmd, NULL);
	if (err)
		return err;
	q->hw_qp = true;
	return 0;
}

/**
 * irdma_puda_create - make a PUDA queue: its memory, CQ and QP, its
 *	receive buffers posted and its CQ armed
 * @fn: the function
 * @cfg: what it is to be
 * @out: returns it
 *
 * Return: 0 or a negative errno, with nothing left behind.
 */
int irdma_puda_create(struct irdma_fn *fn, const struct irdma_puda_cfg *cfg,
		      struct irdma_puda **out)
{
	struct irdma_puda *q;
	int err;
	u32 i;

	if (!is_power_of_2(cfg->size) || cfg->size < 8 ||
	    cfg->size > IRDMA_PUDA_MAX_SIZE || !cfg->receive ||
	    cfg->buf_size < IRDMA_PUDA_TCP_OFFSET + 20 || !cfg->tx_bufs ||
	    cfg->tx_bufs > U16_MAX + 1)
		return -EINVAL;
	q = kzalloc(sizeof(*q), GFP_KERNEL);
	if (!q)
		return -ENOMEM;
	q->fn = fn;
	q->id = cfg->id;
	q->size = cfg->size;
	/* A CQE a send and a receive, a second one for a wide receive. */
	q->cq_size = (cfg->rx_wide ? 3 : 2) * cfg->size;
	q->buf_size = cfg->buf_size;
	q->tx_bufs = cfg->tx_bufs;
	q->receive = cfg->receive;
	q->priv = cfg->priv;
	spin_lock_init(&q->lock);
	irdma_ring_init(&q->sq, q->size);

	err = irdma_puda_alloc(fn, q) ?: irdma_puda_create_cq(fn, q) ?:
	      irdma_puda_create_qp(fn, q);
	if (err) {
		irdma_puda_destroy(fn, q);
		return err;
	}
	for (i = 0; i < q->size; i++)
		irdma_puda_post_recv(q, i);
	irdma_uk_cq_arm(&q->cq, false);
	*out = q;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_puda_create);

/**
 * irdma_puda_destroy - take a PUDA queue down and free it
 * @fn: the function
 * @q: the queue, made or half made; may be NULL
 *
 * Memory the hardware may still write (its destroy failed) is kept until
 * the CQP is down.
 */
void irdma_puda_destroy(struct irdma_fn *fn, struct irdma_puda *q)
{
	struct irdma_cqp_wqe cmd;
	bool qp_done = true, cq_done = true;

	if (!q)
		return;
	if (q->hw_qp) {
		irdma_build_destroy_qp(&cmd, &q->hw);
		qp_done = !irdma_cqp_exec(fn, &cmd, NULL);
		q->hw_qp = false;
	}
	/* Its place on the scheduler tree goes with the QP, before the CQ. */
	irdma_ws_puda_leave(fn, q);
	if (q->hw_cq) {
		irdma_build_destroy_cq(&cmd, &q->cq_hw);
		cq_done = !irdma_cqp_exec(fn, &cmd, NULL);
		q->hw_cq = false;
	}
	irdma_puda_bufs_release(fn, &q->tx, qp_done);
	irdma_puda_bufs_release(fn, &q->rx, qp_done);
	irdma_dma_release(fn, &q->qp_mem, qp_done);
	irdma_dma_release(fn, &q->cq_mem, cq_done);
	bitmap_free(q->rq_valid);
	kfree(q->tx_free);
	kfree(q->sq_buf);
	kfree(q);
}
EXPORT_SYMBOL_IF_KUNIT(irdma_puda_destroy);

/*
 * The SQ and the RQ of either queue: half the function's QPs (as its HMC
 * holds them), at most IRDMA_PUDA_MAX_SIZE, a power of two.
 */
static u32 irdma_puda_size(struct irdma_fn *fn)
{
	u32 half = fn->hmc.obj[IRDMA_HMC_QP].cnt / 2;

	return rounddown_pow_of_two(clamp_t(u32, half, 8, IRDMA_PUDA_MAX_SIZE));
}

/* The IEQ holds frames of the netdev's MTU. */
static struct irdma_puda_cfg irdma_ieq_cfg(struct irdma_fn *fn, u32 size)
{
	return (struct irdma_puda_cfg) {
		.id = IRDMA_IEQ_QP_ID,
		.size = size,
		.buf_size = READ_ONCE(fn->mtu) + IRDMA_IEQ_BUF_PAD,
		.tx_bufs = IRDMA_IEQ_TX_BUFS,
		.receive = irdma_ieq_receive,
	};
}

/**
 * irdma_puda_ieq_remake - the MTU changed: a new IEQ for frames of it
 * @fn: the function; an iWARP function with its IEQ, or nothing is done
 *
 * The old IEQ goes first (the new one takes its number).
 *
 * Return: 0 or a negative errno; the function then has no IEQ.
 */
int irdma_puda_ieq_remake(struct irdma_fn *fn)
{
	struct irdma_puda_cfg cfg;
	struct irdma_puda *q;
	int err;

	mutex_lock(&fn->puda_lock);
	q = fn->ieq;
	fn->ieq = NULL;
	mutex_unlock(&fn->puda_lock);
	if (!q)
		return 0;
	cfg = irdma_ieq_cfg(fn, q->size);
	irdma_puda_destroy(fn, q);
	err = irdma_puda_create(fn, &cfg, &q);
	if (err)
		return err;
	mutex_lock(&fn->puda_lock);
	fn->ieq = q;
	mutex_unlock(&fn->puda_lock);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(irdma_puda_ieq_remake);

/**
 * irdma_puda_setup - make an iWARP function's ILQ and IEQ
 * @fn: the function, its CEQ 0 up
 *
 * A RoCE function has neither.
 *
 * Return: 0 or a negative errno, with neither left.
 */
int irdma_puda_setup(struct irdma_fn *fn)
{
	struct irdma_puda *q[IRDMA_PUDA_QUEUES] = {};
	struct irdma_puda_cfg cfg[IRDMA_PUDA_QUEUES];
	int err = 0, i;
	u32 size;

	if (fn->res.protocol != IRDMA_PROTOCOL_IWARP)
		return 0;
	size = irdma_puda_size(fn);
	cfg[0] = (struct irdma_puda_cfg) {
		.id = IRDMA_ILQ_ID,
		.size = size,
		.rx_wide = fn->res.gen >= IRDMA_GEN_2,
		.buf_size = IRDMA_ILQ_BUF_SIZE,
		.tx_bufs = 2 * size,
		.receive = irdma_cm_ilq_receive,
	};
	cfg[1] = irdma_ieq_cfg(fn, size);
	for (i = 0; i < IRDMA_PUDA_QUEUES && !err; i++)
		err = irdma_puda_create(fn, &cfg[i], &q[i]);
	if (err) {
		while (i--)
			irdma_puda_destroy(fn, q[i]);
		return err;
	}
	mutex_lock(&fn->puda_lock);
	fn->ilq = q[0];
	fn->ieq = q[1];
	mutex_unlock(&fn->puda_lock);
	return 0;
}

/**
 * irdma_puda_teardown - take the ILQ and IEQ down, if there are any
 * @fn: the function
 *
 * An event of their CQ in flight is done with them first.
 */
void irdma_puda_teardown(struct irdma_fn *fn)
{
	struct irdma_puda *ilq, *ieq;

	mutex_lock(&fn->puda_lock);
	ilq = fn->ilq;
	ieq = fn->ieq;
	fn->ilq = NULL;
	fn->ieq = NULL;
	mutex_unlock(&fn->puda_lock);
	irdma_puda_destroy(fn, ieq);
	irdma_puda_destroy(fn, ilq);
}
