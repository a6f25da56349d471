// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The steering tables of the engine's TCP side: the accelerated port bit
 * vector (a bit per local port the engine owns) and the quad hash (which
 * connection or listener a segment belongs to, and the QP it goes to).
 * MANAGE_APBVT sets and clears bits, as the hardware's vector does: a
 * second set or a clear of a clear bit is no error. The quad hash
 * refuses an entry it already has and the deletion of one it has not:
 * the driver keeps one of each. Of its entry types only the two iWARP's
 * connection manager uses are modelled; the others, and MODIFY, are
 * refused as such (ISIM_MIN_UNMODELLED).
 */
#include <linux/bitfield.h>
#include <linux/jhash.h>

#include "sim.h"

#define ISIM_MAX_QHASH	4096

/**
 * struct isim_qhash_entry - an entry of the quad hash
 * @node: in the table, by the hash of @key
 * @key: what a segment must match: type, VLAN, addresses and ports
 * @qpn: where matching segments go
 * @qs_handle: the queue set named with it
 * @mac: the local MAC address named with it
 */
struct isim_qhash_entry {
	struct hlist_node node;
	struct isim_qhash_key {
		u32 local_ip[4];
		u32 remote_ip[4];
		u16 local_port;
		u16 remote_port;
		u16 vlan;	/* with bit 15 set when valid */
		u8 type;
		u8 ipv4;
	} key;
	u32 qpn;
	u16 qs_handle;
	u64 mac;
};

/**
 * isim_steer_apbvt - MANAGE_APBVT: a local port's bit set or cleared
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion
 */
void isim_steer_apbvt(struct isim_dev *sdev, const __le64 *wqe,
		      struct isim_cqp_result *res)
{
	u16 port = FIELD_GET(IRDMA_CQPSQ_MAPT_PORT, le64_to_cpu(wqe[2]));

	/* The vector lives in the HMC: no object, no vector. */
	if (!sdev->hmc.committed || !sdev->hmc.cnt[IRDMA_HMC_APBVT])
		return isim_fail(res, ISIM_MIN_BAD_PARAM);
	if (le64_to_cpu(wqe[3]) & IRDMA_CQPSQ_MAPT_ADDPORT)
		set_bit(port, sdev->steer.apbvt);
	else
		clear_bit(port, sdev->steer.apbvt);
}

static void isim_qhash_addr(u32 *ip, const __le64 *q)
{
	u64 lo = le64_to_cpu(q[0]), hi = le64_to_cpu(q[1]);

	ip[0] = FIELD_GET(IRDMA_CQPSQ_QHASH_ADDR_HI, hi);
	ip[1] = FIELD_GET(IRDMA_CQPSQ_QHASH_ADDR_LO, hi);
	ip[2] = FIELD_GET(IRDMA_CQPSQ_QHASH_ADDR_HI, lo);
	ip[3] = FIELD_GET(IRDMA_CQPSQ_QHASH_ADDR_LO, lo);
}

static struct isim_qhash_entry *isim_qhash_find(struct isim_dev *sdev,
						const struct isim_qhash_key *key,
						u32 hash)
{
	struct isim_qhash_entry *e;

	hash_for_each_possible(sdev->steer.qhash, e, node, hash)
		if (!memcmp(&e->key, key, sizeof(*key)))
			return e;
	return NULL;
}

/**
 * isim_steer_qhash - MANAGE_QUAD_HASH_TABLE_ENTRY: add or delete an entry
 * @sdev: the simulated function
 * @wqe: the command
 * @res: its completion
 */
void isim_steer_qhash(struct isim_dev *sdev, const __le64 *wqe,
		      struct isim_cqp_result *res)
{
	u64 hdr = le64_to_cpu(wqe[3]), q1 = le64_to_cpu(wqe[1]);
	u64 q2 = le64_to_cpu(wqe[2]);
	u8 manage = FIELD_GET(IRDMA_CQPSQ_QHASH_MANAGE, hdr);
	struct isim_qhash_key key = {};
	struct isim_qhash_entry *e;
	u32 qpn, hash;

	key.type = FIELD_GET(IRDMA_CQPSQ_QHASH_ENTRYTYPE, hdr);
	if ((key.type != IRDMA_QHASH_TCP_ESTABLISHED &&
	     key.type != IRDMA_QHASH_TCP_SYN) ||
	    (manage != IRDMA_CM_TABLE_ADD && manage != IRDMA_CM_TABLE_DELETE)) {
		dev_warn_ratelimited(&sdev->dev,
				     "quad hash: entry type %u, manage %u not modelled\n",
				     key.type, manage);
		return isim_fail(res, ISIM_MIN_UNMODELLED);
	}
	qpn = FIELD_GET(IRDMA_CQPSQ_QHASH_QPN, q1);
	if (!sdev->hmc.committed || qpn >= sdev->hmc.cnt[IRDMA_HMC_QP])
		return isim_fail(res, ISIM_MIN_BAD_PARAM);

	key.ipv4 = !!(hdr & IRDMA_CQPSQ_QHASH_IPV4VALID);
	if (hdr & IRDMA_CQPSQ_QHASH_VLANVALID)
		key.vlan = BIT(15) | FIELD_GET(IRDMA_CQPSQ_QHASH_VLANID, q2);
	key.local_port = FIELD_GET(IRDMA_CQPSQ_QHASH_DEST_PORT, q1);
	isim_qhash_addr(key.local_ip, &wqe[6]);
	/* A listener's entry matches any remote end. */
	if (key.type == IRDMA_QHASH_TCP_ESTABLISHED) {
		key.remote_port = FIELD_GET(IRDMA_CQPSQ_QHASH_SRC_PORT, q1);
		isim_qhash_addr(key.remote_ip, &wqe[4]);
	}
	if (key.ipv4) {
		memset(key.local_ip, 0, 3 * sizeof(u32));
		memset(key.remote_ip, 0, 3 * sizeof(u32));
	}

	hash = jhash(&key, sizeof(key), 0);
	e = isim_qhash_find(sdev, &key, hash);
	if (manage == IRDMA_CM_TABLE_DELETE) {
		if (!e)
			return isim_fail(res, ISIM_MIN_BAD_PARAM);
		hash_del(&e->node);
		sdev->steer.qhash_count--;
		kfree(e);
		return;
	}
	if (e)
		return isim_fail(res, ISIM_MIN_BAD_PARAM);
	if (sdev->steer.qhash_count >= ISIM_MAX_QHASH)
		return isim_fail(res, ISIM_MIN_NO_SPACE);
	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return isim_fail(res, ISIM_MIN_NO_SPACE);
	e->key = key;
	e->qpn = qpn;
	e->qs_handle = FIELD_GET(IRDMA_CQPSQ_QHASH_QS_HANDLE, q2);
	e->mac = FIELD_GET(IRDMA_CQPSQ_QHASH_MAC, le64_to_cpu(wqe[0]));
	hash_add(sdev->steer.qhash, &e->node, hash);
	sdev->steer.qhash_count++;
}

/**
 * isim_steer_clear - the tables go with the function's state
 * @sdev: the simulated function, its engine stopped or its lock held
 */
void isim_steer_clear(struct isim_dev *sdev)
{
	struct isim_qhash_entry *e;
	struct hlist_node *tmp;
	int bkt;

	hash_for_each_safe(sdev->steer.qhash, bkt, tmp, e, node) {
		hash_del(&e->node);
		kfree(e);
	}
	sdev->steer.qhash_count = 0;
	bitmap_zero(sdev->steer.apbvt, 65536);
}
