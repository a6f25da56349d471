// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests of an iWARP function's iw_cm entry points against the
 * simulator: every one ib_core may call is there; a listen steers its
 * address and port to the ILQ and is undone by its destruction; steps
 * that name nothing to connect are refused. And the
 * steering tables a connection manager programs: the accelerated ports,
 * counted per user, and quad-hash entries, as the simulator keeps them.
 * And the ILQ and IEQ the connection manager speaks TCP through, and
 * when a consumer's abandoned connection is reset. And how a terminate
 * sequence meets a consumer's move to error and the peer's FIN.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/ip.h>
#include <linux/rtnetlink.h>
#include <linux/tcp.h>
#include <net/checksum.h>
#include <rdma/ib_verbs.h>
#include <rdma/iw_cm.h>

#include "../verbs.h"
#include "../sim/irdma_sim.h"
#include "../sim/sim.h"
#include "term_frame.h"

#define TEST_FN_ID	23

struct iwcm_env {
	struct kunit *test;
	struct ib_device *ibdev;
	struct irdma_fn *fn;
	struct isim_dev *sdev;
	bool added;
};

static void iwcm_env_cleanup(void *data)
{
	struct iwcm_env *e = data;

	if (e->added)
		KUNIT_EXPECT_EQ(e->test, irdma_sim_del(TEST_FN_ID), 0);
}

/* An iWARP function, registered. */
static struct iwcm_env *iwcm_env_setup(struct kunit *test)
{
	struct iwcm_env *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	struct auxiliary_device *adev;

	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, iwcm_env_cleanup, e), 0);
	e->test = test;
	KUNIT_ASSERT_EQ(test, irdma_sim_add(TEST_FN_ID, false), 0);
	e->added = true;
	adev = irdma_sim_adev(TEST_FN_ID);
	KUNIT_ASSERT_NOT_NULL(test, adev);
	KUNIT_ASSERT_NOT_NULL(test, adev->dev.driver);
	e->fn = auxiliary_get_drvdata(adev);
	e->ibdev = &fn_to_iwdev(e->fn)->ibdev;
	e->sdev = to_isim_dev(adev->dev.parent);
	put_device(&adev->dev);
	KUNIT_ASSERT_EQ(test, e->ibdev->node_type, RDMA_NODE_RNIC);
	return e;
}

/* ib_core's iw_cm calls each of these on an RNIC without a check. */
static void irdma_iwcm_ops_present_test(struct kunit *test)
{
	struct iwcm_env *e = iwcm_env_setup(test);
	const struct ib_device_ops *ops = &e->ibdev->ops;

	KUNIT_EXPECT_NOT_NULL(test, ops->iw_get_qp);
	KUNIT_EXPECT_NOT_NULL(test, ops->iw_add_ref);
	KUNIT_EXPECT_NOT_NULL(test, ops->iw_rem_ref);
	KUNIT_EXPECT_NOT_NULL(test, ops->iw_connect);
	KUNIT_EXPECT_NOT_NULL(test, ops->iw_accept);
	KUNIT_EXPECT_NOT_NULL(test, ops->iw_reject);
	KUNIT_EXPECT_NOT_NULL(test, ops->iw_create_listen);
	KUNIT_EXPECT_NOT_NULL(test, ops->iw_destroy_listen);
	/* iWARP's GIDs come from query_gid; it has no P_Keys or AHs. */
	KUNIT_EXPECT_NOT_NULL(test, ops->query_gid);
	KUNIT_EXPECT_NULL(test, ops->create_ah);
}

static int iwcm_refs;

static void iwcm_add_ref(struct iw_cm_id *cm_id)
{
	iwcm_refs++;
}

static void iwcm_rem_ref(struct iw_cm_id *cm_id)
{
	iwcm_refs--;
}

static void iwcm_id_init(struct iw_cm_id *cm_id, struct ib_device *ibdev, u32 ip,
			 u16 port)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)&cm_id->m_local_addr;

	memset(cm_id, 0, sizeof(*cm_id));
	cm_id->device = ibdev;
	cm_id->add_ref = iwcm_add_ref;
	cm_id->rem_ref = iwcm_rem_ref;
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(ip);
	sin->sin_port = htons(port);
	cm_id->local_addr = cm_id->m_local_addr;
}

/*
 * A listen steers its address and port to the ILQ (a quad hash entry,
 * the APBVT bit) and holds its iw_cm_id; a second listen on the same
 * address and port is refused with upstream's -ENOMEM; destroying the
 * listen undoes all of it.
 */
static void irdma_iwcm_listen_test(struct kunit *test)
{
	struct iwcm_env *e = iwcm_env_setup(test);
	const struct ib_device_ops *ops = &e->ibdev->ops;
	/* Off the stack: three of them are too much for a frame. */
	struct iw_cm_id *id = kunit_kcalloc(test, 3, sizeof(*id), GFP_KERNEL);
	u32 entries = e->sdev->steer.qhash_count;
	struct iw_cm_id *dup, *none;

	KUNIT_ASSERT_NOT_NULL(test, id);
	dup = id + 1;
	none = id + 2;

	iwcm_refs = 0;
	iwcm_id_init(id, e->ibdev, 0xc0a84d01, 7174);
	iwcm_id_init(dup, e->ibdev, 0xc0a84d01, 7174);
	KUNIT_ASSERT_EQ(test, ops->iw_create_listen(id, 8), 0);
	KUNIT_EXPECT_EQ(test, iwcm_refs, 1);
	KUNIT_EXPECT_TRUE(test, test_bit(7174, e->sdev->steer.apbvt));
	KUNIT_EXPECT_EQ(test, e->sdev->steer.qhash_count, entries + 1);
	KUNIT_EXPECT_EQ(test, ops->iw_create_listen(dup, 8), -ENOMEM);
	KUNIT_EXPECT_EQ(test, iwcm_refs, 1);

	/* A port of 0, and an address family the engine has not. */
	iwcm_id_init(none, e->ibdev, 0xc0a84d01, 0);
	KUNIT_EXPECT_EQ(test, ops->iw_create_listen(none, 8), -EINVAL);
	none->m_local_addr.ss_family = AF_UNSPEC;
	KUNIT_EXPECT_EQ(test, ops->iw_create_listen(none, 8), -EINVAL);
	KUNIT_EXPECT_EQ(test, iwcm_refs, 1);

	KUNIT_EXPECT_EQ(test, ops->iw_destroy_listen(id), 0);
	KUNIT_EXPECT_EQ(test, iwcm_refs, 0);
	KUNIT_EXPECT_FALSE(test, test_bit(7174, e->sdev->steer.apbvt));
	KUNIT_EXPECT_EQ(test, e->sdev->steer.qhash_count, entries);
}

/* Steps towards a connection that name nothing to connect are refused. */
static void irdma_iwcm_refused_test(struct kunit *test)
{
	struct iwcm_env *e = iwcm_env_setup(test);
	const struct ib_device_ops *ops = &e->ibdev->ops;
	struct iw_cm_conn_param param = { .qpn = 77 };
	struct iw_cm_id cm_id;

	iwcm_refs = 0;
	iwcm_id_init(&cm_id, e->ibdev, 0xc0a84d01, 7174);
	/* No QP 77: nothing to connect or accept with. */
	KUNIT_EXPECT_EQ(test, ops->iw_connect(&cm_id, &param), -EINVAL);
	KUNIT_EXPECT_EQ(test, ops->iw_accept(&cm_id, &param), -EINVAL);
	/* No connection request behind the iw_cm_id. */
	KUNIT_EXPECT_EQ(test, ops->iw_reject(&cm_id, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, iwcm_refs, 0);
}

/* Numbers that name no live QP find nothing, and take nothing. */
static void irdma_iwcm_no_qp_test(struct kunit *test)
{
	struct iwcm_env *e = iwcm_env_setup(test);
	const struct ib_device_ops *ops = &e->ibdev->ops;

	KUNIT_ASSERT_NOT_NULL(test, ops->iw_get_qp);
	KUNIT_EXPECT_NULL(test, ops->iw_get_qp(e->ibdev, -1));
	KUNIT_EXPECT_NULL(test, ops->iw_get_qp(e->ibdev, 0));
	KUNIT_EXPECT_NULL(test, ops->iw_get_qp(e->ibdev, 1));
	KUNIT_EXPECT_NULL(test, ops->iw_get_qp(e->ibdev, 4095));
	KUNIT_EXPECT_NULL(test, ops->iw_get_qp(e->ibdev, INT_MAX));
}

/*
 * A port's bit is set by its first user and cleared after its last; the
 * users in between send no command: a failure armed for the next APBVT
 * command is still there for the first one that is sent.
 */
static void irdma_iwcm_apbvt_users_test(struct kunit *test)
{
	struct iwcm_env *e = iwcm_env_setup(test);
	unsigned long *bits = e->sdev->steer.apbvt;

	KUNIT_ASSERT_EQ(test, irdma_apbvt_get(e->fn, 20000), 0);
	KUNIT_EXPECT_TRUE(test, test_bit(20000, bits));

	irdma_sim_fail_cqp_op(TEST_FN_ID, IRDMA_CQPOP_MANAGE_APBVT, 1);
	KUNIT_EXPECT_EQ(test, irdma_apbvt_get(e->fn, 20000), 0);
	irdma_apbvt_put(e->fn, 20000);
	KUNIT_EXPECT_TRUE(test, test_bit(20000, bits));
	/* The armed failure meets the next command: this port's add. */
	KUNIT_EXPECT_EQ(test, irdma_apbvt_get(e->fn, 4791), -EIO);
	KUNIT_EXPECT_FALSE(test, test_bit(4791, bits));
	KUNIT_EXPECT_NULL(test, xa_load(&e->fn->apbvt, 4791));

	irdma_apbvt_put(e->fn, 20000);
	KUNIT_EXPECT_FALSE(test, test_bit(20000, bits));
	KUNIT_EXPECT_TRUE(test, xa_empty(&e->fn->apbvt));
	/* A port nobody holds: nothing sent. */
	irdma_sim_fail_cqp_op(TEST_FN_ID, IRDMA_CQPOP_MANAGE_APBVT, 1);
	irdma_apbvt_put(e->fn, 20000);
	KUNIT_EXPECT_EQ(test, irdma_apbvt_get(e->fn, 4791), -EIO);
	KUNIT_EXPECT_EQ(test, irdma_apbvt_get(e->fn, 4791), 0);
	KUNIT_EXPECT_TRUE(test, test_bit(4791, bits));
	irdma_apbvt_put(e->fn, 4791);
	KUNIT_EXPECT_EQ(test, bitmap_weight(bits, 65536), 0);
}

/*
 * A listener's entry and a connection's: a second copy of either and the
 * deletion of one not there are refused; an entry type the simulator
 * does not model is refused as such.
 */
static void irdma_iwcm_qhash_test(struct kunit *test)
{
	struct iwcm_env *e = iwcm_env_setup(test);
	struct irdma_qhash_info listener = {
		.type = IRDMA_QHASH_TCP_SYN, .ipv4 = true,
		.local_ip = { 0, 0, 0, 0xc0a84d01 }, .local_port = 20000,
		.qp_id = 1,
	};
	struct irdma_qhash_info conn = listener;
	struct irdma_qhash_info udp = listener;

	conn.type = IRDMA_QHASH_TCP_ESTABLISHED;
	conn.remote_ip[3] = 0xc0a84d02;
	conn.remote_port = 33000;
	udp.type = 3;	/* UDP unicast: valid, not modelled */

	KUNIT_EXPECT_EQ(test, irdma_qhash_manage(e->fn, &listener, IRDMA_CM_TABLE_ADD), 0);
	KUNIT_EXPECT_EQ(test, irdma_qhash_manage(e->fn, &conn, IRDMA_CM_TABLE_ADD), 0);
	KUNIT_EXPECT_EQ(test, e->sdev->steer.qhash_count, 2);
	KUNIT_EXPECT_EQ(test, irdma_qhash_manage(e->fn, &listener, IRDMA_CM_TABLE_ADD), -EIO);
	KUNIT_EXPECT_EQ(test, irdma_qhash_manage(e->fn, &udp, IRDMA_CM_TABLE_ADD), -EIO);
	KUNIT_EXPECT_EQ(test, e->sdev->steer.qhash_count, 2);

	KUNIT_EXPECT_EQ(test, irdma_qhash_manage(e->fn, &conn, IRDMA_CM_TABLE_DELETE), 0);
	KUNIT_EXPECT_EQ(test, irdma_qhash_manage(e->fn, &conn, IRDMA_CM_TABLE_DELETE), -EIO);
	KUNIT_EXPECT_EQ(test, irdma_qhash_manage(e->fn, &listener, IRDMA_CM_TABLE_DELETE), 0);
	KUNIT_EXPECT_EQ(test, e->sdev->steer.qhash_count, 0);
}

/*
 * Whether the function has an IEQ whose buffers hold a frame of @mtu and
 * the engine its QP. The MTU event sets fn->mtu first and then makes the
 * IEQ anew: a test that waited for fn->mtu alone found the old one, or
 * none, once in a while.
 */
static bool iwcm_ieq_for_mtu(struct iwcm_env *e, u32 mtu)
{
	bool ok;

	mutex_lock(&e->fn->puda_lock);
	ok = e->fn->ieq && e->fn->ieq->buf_size == mtu + 20 &&
	     xa_load(&e->sdev->qps, IRDMA_IEQ_QP_ID);
	mutex_unlock(&e->fn->puda_lock);
	return ok;
}

/* The ILQ and IEQ: UDA QPs in RTS, each with the CQ of its number. */
static void irdma_iwcm_puda_made_test(struct kunit *test)
{
	struct iwcm_env *e = iwcm_env_setup(test);
	u32 ids[] = { IRDMA_ILQ_ID, IRDMA_IEQ_QP_ID };
	struct net_device *ndev = e->fn->res.netdev;
	int i, tries, old = ndev->mtu;
	struct isim_qp *sqp;
	u32 size;

	KUNIT_ASSERT_NOT_NULL(test, e->fn->ilq);
	KUNIT_ASSERT_NOT_NULL(test, e->fn->ieq);
	KUNIT_EXPECT_EQ(test, e->fn->ilq->id, IRDMA_ILQ_ID);
	KUNIT_EXPECT_EQ(test, e->fn->ieq->id, IRDMA_IEQ_QP_ID);
	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		sqp = xa_load(&e->sdev->qps, ids[i]);
		KUNIT_ASSERT_NOT_NULL(test, sqp);
		KUNIT_EXPECT_EQ(test, sqp->type, IRDMA_QP_TYPE_UDA);
		KUNIT_EXPECT_EQ(test, sqp->state, IRDMA_QPS_RTS);
		KUNIT_EXPECT_TRUE(test, sqp->priv);
		KUNIT_EXPECT_EQ(test, sqp->scq, ids[i]);
		KUNIT_EXPECT_EQ(test, sqp->rcq, ids[i]);
		KUNIT_EXPECT_NOT_NULL(test, isim_cq_find(e->sdev, ids[i]));
		/* Its SQ may send: the queue set is attached. */
		KUNIT_EXPECT_TRUE(test, isim_qset_live(e->sdev, sqp->qs_handle));
	}

	/*
	 * Upstream's sizes: SQ and RQ of half the HMC's QPs; a CQE a send and
	 * a receive, twice for the ILQ's receives (GEN_2); the IEQ's buffers
	 * a frame of the MTU and 20 bytes, the ILQ's 1 KiB.
	 */
	size = min(e->fn->hmc.obj[IRDMA_HMC_QP].cnt / 2, 32768U);
	KUNIT_EXPECT_EQ(test, e->fn->ilq->size, size);
	KUNIT_EXPECT_EQ(test, e->fn->ieq->size, size);
	KUNIT_EXPECT_EQ(test, isim_cq_find(e->sdev, IRDMA_ILQ_ID)->size, 3 * size);
	KUNIT_EXPECT_EQ(test, isim_cq_find(e->sdev, IRDMA_IEQ_QP_ID)->size, 2 * size);
	KUNIT_EXPECT_EQ(test, e->fn->ilq->buf_size, 1024);
	KUNIT_EXPECT_EQ(test, e->fn->ieq->buf_size, e->fn->mtu + 20);
	KUNIT_EXPECT_EQ(test, e->fn->ieq->tx_bufs, 4096);

	/* A new MTU: a new IEQ, its buffers sized for it. */
	rtnl_lock();
	KUNIT_EXPECT_EQ(test, dev_set_mtu(ndev, 1000), 0);
	rtnl_unlock();
	for (tries = 0; tries < 200 && !iwcm_ieq_for_mtu(e, 1000); tries++)
		usleep_range(5000, 10000);
	KUNIT_EXPECT_EQ(test, e->fn->mtu, 1000);
	KUNIT_EXPECT_TRUE(test, iwcm_ieq_for_mtu(e, 1000));
	rtnl_lock();
	dev_set_mtu(ndev, old);
	rtnl_unlock();
	for (tries = 0; tries < 200 && !iwcm_ieq_for_mtu(e, old); tries++)
		usleep_range(5000, 10000);
	KUNIT_EXPECT_EQ(test, e->fn->mtu, old);
	KUNIT_EXPECT_TRUE(test, iwcm_ieq_for_mtu(e, old));
}

struct iwcm_ilq_rx {
	struct completion done;
	struct irdma_puda_rx rx;
	u8 data[128];
};

static void iwcm_ilq_receive(struct irdma_puda *q, const struct irdma_puda_rx *rx)
{
	struct iwcm_ilq_rx *got = q->priv;

	if (completion_done(&got->done))
		return;
	got->rx = *rx;
	memcpy(got->data, rx->data, min_t(u32, rx->len, sizeof(got->data)));
	complete(&got->done);
}

static int iwcm_cqp(struct irdma_fn *fn, struct irdma_cqp_wqe *cmd)
{
	return irdma_cqp_exec(fn, cmd, NULL);
}

/*
 * A segment sent through the ILQ to the function's own address comes
 * back through the switch, is steered by the APBVT and a listener's quad
 * hash entry to the ILQ, and lands in a receive buffer as the hardware
 * puts it: the IPv4 header (the AH's addresses, TTL and TOS) ending 40
 * bytes in, the TCP header from there with its checksum filled in, the
 * source MAC in the completion. A send before it, through an AH whose ARP
 * entry is not there yet, fails alone: its completion carries the error,
 * and the ILQ goes on (the stock driver sends resets to neighbours it has
 * deleted, and never brings its ILQ back).
 */
static void irdma_iwcm_ilq_loopback_test(struct kunit *test)
{
	struct iwcm_env *e = iwcm_env_setup(test);
	struct irdma_fn *fn = e->fn;
	struct net_device *ndev = e->sdev->netdev;
	const u32 addr = 0xc0a84e01;
	struct irdma_qhash_info listener = {
		.type = IRDMA_QHASH_TCP_SYN, .ipv4 = true,
		.local_ip = { 0, 0, 0, addr }, .local_port = 7174,
		.qp_id = IRDMA_ILQ_ID,
	};
	struct irdma_ah_hw_info ah = {
		.ipv4 = true, .dest_ip = { 0, 0, 0, addr },
		.src_ip = { 0, 0, 0, addr }, .arp_idx = 5, .hop_limit = 64,
		.tc = 0x20,
	};
	struct tcphdr seg = {
		.source = htons(40000), .dest = htons(7174),
		.seq = htonl(0x1234), .doff = 5, .syn = 1, .window = htons(8192),
	};
	struct iwcm_ilq_rx *got = kunit_kzalloc(test, sizeof(*got), GFP_KERNEL);
	struct irdma_puda *ilq = fn->ilq;
	void (*hook)(struct irdma_puda *q, const struct irdma_puda_rx *rx);
	struct irdma_cqp_wqe cmd;
	const struct iphdr *ip;
	const struct tcphdr *th;
	int ah_id, i;

	KUNIT_ASSERT_NOT_NULL(test, got);
	KUNIT_ASSERT_NOT_NULL(test, ilq);
	init_completion(&got->done);
	rtnl_lock();
	KUNIT_ASSERT_EQ(test, dev_open(ndev, NULL), 0);
	rtnl_unlock();

	ether_addr_copy(ah.mac, ndev->dev_addr);
	ah_id = irdma_ids_alloc(&fn->ah_ids, 1, fn->hmc.obj[IRDMA_HMC_FSIAV].cnt - 1);
	KUNIT_ASSERT_GT(test, ah_id, 0);
	ah.id = ah_id;
	irdma_build_ah(&cmd, &ah, IRDMA_CQPOP_CREATE_ADDR_HANDLE);
	KUNIT_ASSERT_EQ(test, iwcm_cqp(fn, &cmd), 0);
	KUNIT_EXPECT_EQ(test, irdma_puda_send(ilq, ah_id, &seg, sizeof(seg), sizeof(seg)), 0);
	for (i = 0; i < 250 && !READ_ONCE(ilq->stats.tx_errors); i++)
		msleep(20);
	KUNIT_EXPECT_EQ(test, ilq->stats.tx_errors, 1);
	KUNIT_EXPECT_EQ(test, e->sdev->stats.uda_tx, 0);
	irdma_build_manage_arp(&cmd, ah.arp_idx, ndev->dev_addr);
	KUNIT_ASSERT_EQ(test, iwcm_cqp(fn, &cmd), 0);
	KUNIT_ASSERT_EQ(test, irdma_apbvt_get(fn, 7174), 0);
	KUNIT_ASSERT_EQ(test, irdma_qhash_manage(fn, &listener, IRDMA_CM_TABLE_ADD), 0);

	mutex_lock(&fn->puda_lock);
	hook = ilq->receive;
	ilq->priv = got;
	ilq->receive = iwcm_ilq_receive;
	mutex_unlock(&fn->puda_lock);
	KUNIT_EXPECT_EQ(test, irdma_puda_send(ilq, ah_id, &seg, sizeof(seg), sizeof(seg)), 0);
	KUNIT_EXPECT_GT(test, wait_for_completion_timeout(&got->done, 5 * HZ), 0);
	mutex_lock(&fn->puda_lock);
	ilq->receive = hook;
	mutex_unlock(&fn->puda_lock);

	if (completion_done(&got->done)) {
		KUNIT_EXPECT_EQ(test, got->rx.len, 40 + sizeof(seg));
		KUNIT_EXPECT_TRUE(test, got->rx.ipv4);
		KUNIT_EXPECT_FALSE(test, got->rx.vlan_valid);
		KUNIT_EXPECT_MEMEQ(test, got->rx.smac, ndev->dev_addr, ETH_ALEN);
		ip = (const struct iphdr *)(got->data + 20);
		th = (const struct tcphdr *)(got->data + 40);
		KUNIT_EXPECT_EQ(test, got->data[20] >> 4, 4);
		KUNIT_EXPECT_EQ(test, ip->protocol, IPPROTO_TCP);
		KUNIT_EXPECT_EQ(test, ip->ttl, 64);
		KUNIT_EXPECT_EQ(test, ip->tos, 0x20);
		KUNIT_EXPECT_EQ(test, ntohl(ip->saddr), addr);
		KUNIT_EXPECT_EQ(test, ntohl(ip->daddr), addr);
		KUNIT_EXPECT_EQ(test, ntohs(ip->tot_len), 20 + sizeof(seg));
		KUNIT_EXPECT_EQ(test, ip_fast_csum(ip, 5), 0);
		KUNIT_EXPECT_EQ(test, ntohs(th->source), 40000);
		KUNIT_EXPECT_EQ(test, ntohs(th->dest), 7174);
		KUNIT_EXPECT_EQ(test, ntohl(th->seq), 0x1234);
		KUNIT_EXPECT_TRUE(test, tcp_flag_word(th) & TCP_FLAG_SYN);
		KUNIT_EXPECT_EQ(test, csum_tcpudp_magic(ip->saddr, ip->daddr, sizeof(seg),
							IPPROTO_TCP,
							csum_partial(th, sizeof(seg), 0)), 0);
	}
	KUNIT_EXPECT_EQ(test, ilq->stats.rx, 1);
	KUNIT_EXPECT_EQ(test, ilq->stats.tx, 2);
	KUNIT_EXPECT_EQ(test, ilq->stats.tx_errors, 1);
	KUNIT_EXPECT_EQ(test, e->sdev->stats.uda_tx, 1);
	KUNIT_EXPECT_EQ(test, e->sdev->stats.uda_rx, 1);

	KUNIT_EXPECT_EQ(test, irdma_qhash_manage(fn, &listener, IRDMA_CM_TABLE_DELETE), 0);
	irdma_apbvt_put(fn, 7174);
	irdma_build_ah(&cmd, &ah, IRDMA_CQPOP_DESTROY_ADDR_HANDLE);
	KUNIT_EXPECT_EQ(test, iwcm_cqp(fn, &cmd), 0);
	irdma_ids_free(&fn->ah_ids, ah_id);
	irdma_build_manage_arp(&cmd, ah.arp_idx, NULL);
	KUNIT_EXPECT_EQ(test, iwcm_cqp(fn, &cmd), 0);
}

/* A kernel RC QP on @pd, its queues' completions to @cq. */
static struct ib_qp *iwcm_qp(struct kunit *test, struct ib_pd *pd,
			     struct ib_cq *cq)
{
	struct ib_qp_init_attr init = {
		.send_cq = cq,
		.recv_cq = cq,
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = { .max_send_wr = 8, .max_recv_wr = 8,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ib_qp *qp = ib_create_qp(pd, &init);

	KUNIT_ASSERT_FALSE(test, IS_ERR(qp));
	return qp;
}

static int iwcm_qp_to(struct ib_qp *qp, enum ib_qp_state state)
{
	struct ib_qp_attr attr = { .qp_state = state };

	return ib_modify_qp(qp, &attr, IB_QP_STATE);
}

/* An iWARP QP with its PD and CQ, in INIT (the engine's IDLE). */
static struct ib_qp *iwcm_init_qp(struct kunit *test, struct iwcm_env *e,
				  struct ib_pd **pd, struct ib_cq **cq)
{
	struct ib_qp *qp;

	*pd = ib_alloc_pd(e->ibdev, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(*pd));
	*cq = ib_alloc_cq(e->ibdev, NULL, 32, 0, IB_POLL_DIRECT);
	if (IS_ERR(*cq)) {
		ib_dealloc_pd(*pd);
		KUNIT_FAIL_AND_ABORT(test, "no CQ: %ld", PTR_ERR(*cq));
	}
	qp = iwcm_qp(test, *pd, *cq);
	KUNIT_EXPECT_EQ(test, iwcm_qp_to(qp, IB_QPS_INIT), 0);
	return qp;
}

static void iwcm_init_qp_free(struct kunit *test, struct ib_qp *qp,
			      struct ib_pd *pd, struct ib_cq *cq)
{
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	ib_free_cq(cq);
	ib_dealloc_pd(pd);
}

/*
 * SQD is the graceful close rdma_disconnect() asks for first, and both
 * ends may ask at once: a QP the engine has already taken past RTS
 * (here: to ERROR) takes it as done. Not yet connected, it is nothing to
 * do; failed by its consumer while the engine never had it, refused.
 */
static void irdma_iwcm_sqd_after_close_test(struct kunit *test)
{
	struct iwcm_env *e = iwcm_env_setup(test);
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;

	qp = iwcm_init_qp(test, e, &pd, &cq);
	KUNIT_EXPECT_EQ(test, iwcm_qp_to(qp, IB_QPS_SQD), 0);
	KUNIT_EXPECT_EQ(test, iwcm_qp_to(qp, IB_QPS_ERR), 0);
	KUNIT_EXPECT_EQ(test, to_iwqp(qp)->hw_state, IRDMA_QPS_ERROR);
	KUNIT_EXPECT_EQ(test, iwcm_qp_to(qp, IB_QPS_SQD), 0);
	KUNIT_EXPECT_EQ(test, to_iwqp(qp)->hw_state, IRDMA_QPS_ERROR);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);

	qp = iwcm_qp(test, pd, cq);
	KUNIT_EXPECT_EQ(test, iwcm_qp_to(qp, IB_QPS_ERR), 0);
	KUNIT_EXPECT_EQ(test, iwcm_qp_to(qp, IB_QPS_SQD), -EINVAL);
	iwcm_init_qp_free(test, qp, pd, cq);
}

/*
 * A live connection its consumer abandons is reset while the port is
 * active (as registration and a netdev up report it); with the port down
 * (the netdev down, the device going away) it is left without a reset,
 * as the stock driver leaves it. One closed or in TIME_WAIT never is.
 */
static void irdma_iwcm_reset_port_down_test(struct kunit *test)
{
	struct iwcm_env *e = iwcm_env_setup(test);
	struct irdma_device *iwdev = fn_to_iwdev(e->fn);
	struct net_device *netdev = e->fn->res.netdev;
	struct irdma_qp *qp = kunit_kzalloc(test, sizeof(*qp), GFP_KERNEL);
	bool active;

	KUNIT_ASSERT_NOT_NULL(test, qp);
	KUNIT_EXPECT_TRUE(test, READ_ONCE(iwdev->port_active));
	qp->iwdev = iwdev;
	qp->hw_state = IRDMA_QPS_RTS;
	qp->tcp_state = IRDMA_TCP_STATE_ESTABLISHED;
	KUNIT_EXPECT_EQ(test, irdma_qp_iwarp_err_flags(qp, true, false),
			IRDMA_QPMOD_RESET_CONN);
	KUNIT_EXPECT_EQ(test, irdma_qp_iwarp_err_flags(qp, false, false), 0);

	rtnl_lock();
	KUNIT_EXPECT_EQ(test, dev_open(netdev, NULL), 0);
	dev_close(netdev);
	rtnl_unlock();
	active = READ_ONCE(iwdev->port_active);
	KUNIT_EXPECT_EQ(test, irdma_qp_iwarp_err_flags(qp, true, false), 0);
	KUNIT_EXPECT_EQ(test, irdma_qp_iwarp_err_flags(qp, true, true) &
			IRDMA_QPMOD_RESET_CONN, 0);
	rtnl_lock();
	KUNIT_EXPECT_EQ(test, dev_open(netdev, NULL), 0);
	rtnl_unlock();
	KUNIT_EXPECT_FALSE(test, active);
	KUNIT_EXPECT_TRUE(test, READ_ONCE(iwdev->port_active));

	qp->tcp_state = IRDMA_TCP_STATE_TIME_WAIT;
	KUNIT_EXPECT_EQ(test, irdma_qp_iwarp_err_flags(qp, true, false), 0);
	qp->tcp_state = IRDMA_TCP_STATE_ESTABLISHED;
	qp->hw_state = IRDMA_QPS_ERROR;
	KUNIT_EXPECT_EQ(test, irdma_qp_iwarp_err_flags(qp, true, false), 0);
}

/*
 * A consumer's move to error ends a terminate sequence under way: our
 * TERMINATE went, its FIN step is due to the work and the end to the
 * timer, when the consumer moves the QP to error. The timer is stopped
 * (as upstream's modify deletes its terminate timer), and neither step
 * sends the engine anything more: before, the FIN moved the errored QP
 * back to TERMINATE and the end moved it to error again.
 */
static void irdma_iwcm_term_ended_by_error_test(struct kunit *test)
{
	struct iwcm_env *e = iwcm_env_setup(test);
	struct irdma_qp *iwqp;
	struct ib_pd *pd;
	struct ib_cq *cq;
	u64 ops, ops_after;
	struct ib_qp *qp;
	bool timer_set;

	qp = iwcm_init_qp(test, e, &pd, &cq);
	iwqp = to_iwqp(qp);
	/* As irdma_qp_term_send() and TERMINATE_SENT leave it, the work not yet run. */
	mutex_lock(&iwqp->mutex);
	iwqp->hw_state = IRDMA_QPS_TERMINATE;
	iwqp->term_flags |= IRDMA_TERM_SENT | IRDMA_TERM_TOLD;
	set_bit(IRDMA_TERMW_ACTIVE, &iwqp->term_pending);
	set_bit(IRDMA_TERMW_FIN, &iwqp->term_pending);
	mod_delayed_work(system_wq, &iwqp->term_timer, HZ);
	mutex_unlock(&iwqp->mutex);

	KUNIT_EXPECT_EQ(test, iwcm_qp_to(qp, IB_QPS_ERR), 0);
	KUNIT_EXPECT_EQ(test, iwqp->hw_state, IRDMA_QPS_ERROR);
	timer_set = delayed_work_pending(&iwqp->term_timer);
	KUNIT_EXPECT_FALSE(test, timer_set);
	ops = READ_ONCE(e->sdev->stats.cqp_ops);
	/* The FIN's work, and the end's if the timer still ran. */
	queue_work(system_wq, &iwqp->term_work);
	flush_work(&iwqp->term_work);
	flush_delayed_work(&iwqp->term_timer);
	flush_work(&iwqp->term_work);
	KUNIT_EXPECT_EQ(test, iwqp->hw_state, IRDMA_QPS_ERROR);
	ops_after = READ_ONCE(e->sdev->stats.cqp_ops);
	KUNIT_EXPECT_EQ(test, ops_after, ops);
	iwcm_init_qp_free(test, qp, pd, cq);
}

/*
 * The peer's TERMINATE, of a lower layer (DDP), is in Q2 and its event
 * taken: the work answers with our FIN. The peer's FIN that follows is
 * the close's, not the connection manager's (which would move the
 * closing QP to SQD): the sequence is active from its event on, not only
 * while a step is due. The close's end moves the QP to error.
 */
static void irdma_iwcm_term_fin_taken_test(struct kunit *test)
{
	struct iwcm_env *e = iwcm_env_setup(test);
	struct irdma_qp *iwqp;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	u32 len;
	u8 *f;

	qp = iwcm_init_qp(test, e, &pd, &cq);
	iwqp = to_iwqp(qp);
	f = irdma_test_term_frame(test, false, &len);
	f[14 + 20 + 20 + 20] = 0x12;		/* DDP untagged buffer error */
	memcpy(iwqp->ctx.va + IRDMA_Q2_FRAME_OFFSET, f, len);
	mutex_lock(&iwqp->mutex);
	iwqp->hw_state = IRDMA_QPS_RTS;
	mutex_unlock(&iwqp->mutex);

	KUNIT_EXPECT_TRUE(test, irdma_qp_term_ae(iwqp, IRDMA_AE_LLP_TERMINATE_RECEIVED));
	flush_work(&iwqp->term_work);
	KUNIT_EXPECT_FALSE(test, iwqp->term_flags & IRDMA_TERM_DONE);
	KUNIT_EXPECT_TRUE(test, irdma_qp_term_ae(iwqp, IRDMA_AE_LLP_FIN_RECEIVED));
	KUNIT_EXPECT_TRUE(test, irdma_qp_term_ae(iwqp, IRDMA_AE_LLP_CLOSE_COMPLETE));
	flush_work(&iwqp->term_work);
	KUNIT_EXPECT_EQ(test, iwqp->hw_state, IRDMA_QPS_ERROR);
	KUNIT_EXPECT_TRUE(test, iwqp->term_flags & IRDMA_TERM_DONE);
	iwcm_init_qp_free(test, qp, pd, cq);
}

static struct kunit_case irdma_iwcm_cases[] = {
	KUNIT_CASE_SLOW(irdma_iwcm_ops_present_test),
	KUNIT_CASE_SLOW(irdma_iwcm_listen_test),
	KUNIT_CASE_SLOW(irdma_iwcm_refused_test),
	KUNIT_CASE_SLOW(irdma_iwcm_no_qp_test),
	KUNIT_CASE_SLOW(irdma_iwcm_apbvt_users_test),
	KUNIT_CASE_SLOW(irdma_iwcm_qhash_test),
	KUNIT_CASE_SLOW(irdma_iwcm_puda_made_test),
	KUNIT_CASE_SLOW(irdma_iwcm_ilq_loopback_test),
	KUNIT_CASE_SLOW(irdma_iwcm_sqd_after_close_test),
	KUNIT_CASE_SLOW(irdma_iwcm_reset_port_down_test),
	KUNIT_CASE_SLOW(irdma_iwcm_term_ended_by_error_test),
	KUNIT_CASE_SLOW(irdma_iwcm_term_fin_taken_test),
	{}
};

static struct kunit_suite irdma_iwcm_suite = {
	.name = "irdma_iwcm",
	.test_cases = irdma_iwcm_cases,
};

kunit_test_suite(irdma_iwcm_suite);
