// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The function's Ethernet device. RoCEv2 GIDs come from its addresses and
 * its link state is the port state the driver reports.
 *
 * The netdevs of all simulated functions hang off one Ethernet switch: a
 * frame goes to the netdev that has its destination MAC, a broadcast or
 * multicast frame to every other one that is up. So two functions can be
 * two hosts (a netdev moved into another network namespace reaches the
 * others over the switch, ARP included), as the RDMA fabric already
 * treats them.
 */
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/netdevice.h>

#include "sim.h"

static LIST_HEAD(isim_switch_ports);
static DEFINE_SPINLOCK(isim_switch_lock);

/* Hand a copy of @skb to @dst as if it arrived on the wire. */
static void isim_switch_deliver(struct sk_buff *skb, struct net_device *dst)
{
	struct sk_buff *nskb = skb_clone(skb, GFP_ATOMIC);
	unsigned int len;

	if (!nskb) {
		dev_core_stats_rx_dropped_inc(dst);
		return;
	}
	nskb->protocol = eth_type_trans(nskb, dst);
	len = nskb->len;
	if (netif_rx(nskb) == NET_RX_SUCCESS) {
		DEV_STATS_INC(dst, rx_packets);
		DEV_STATS_ADD(dst, rx_bytes, len);
	}
}

/*
 * A frame arrives at @port: its RDMA engine takes what it accelerates,
 * the netdev the rest. A copy: @skb stays the caller's.
 */
static void isim_port_receive(struct isim_dev *port, struct sk_buff *skb)
{
	if (!isim_steer_take(port, skb))
		isim_switch_deliver(skb, port->netdev);
}

/*
 * Switch @skb from @src's port: to the port that has its destination
 * MAC, or, for a broadcast or multicast frame, to every other one that
 * is up. @skb stays the caller's.
 */
static void isim_switch_forward(struct net_device *src, struct sk_buff *skb)
{
	const u8 *dest = skb_eth_hdr(skb)->h_dest;
	bool flood = is_multicast_ether_addr(dest);
	struct isim_dev *port;
	unsigned long flags;

	spin_lock_irqsave(&isim_switch_lock, flags);
	list_for_each_entry(port, &isim_switch_ports, port) {
		struct net_device *dst = port->netdev;

		if (dst == src || !netif_running(dst) || !netif_carrier_ok(dst))
			continue;
		if (flood) {
			isim_switch_deliver(skb, dst);
		} else if (ether_addr_equal(dest, dst->dev_addr)) {
			isim_port_receive(port, skb);
			break;
		}
	}
	spin_unlock_irqrestore(&isim_switch_lock, flags);
}

static netdev_tx_t isim_netdev_xmit(struct sk_buff *skb, struct net_device *ndev)
{
	if (skb->len < ETH_HLEN) {
		dev_core_stats_tx_dropped_inc(ndev);
		dev_kfree_skb_any(skb);
		return NETDEV_TX_OK;
	}
	DEV_STATS_INC(ndev, tx_packets);
	DEV_STATS_ADD(ndev, tx_bytes, skb->len);
	skb_reset_mac_header(skb);
	isim_switch_forward(ndev, skb);
	dev_kfree_skb_any(skb);
	return NETDEV_TX_OK;
}

/**
 * isim_switch_send - the RDMA engine puts a frame on the wire
 * @sdev: the sending function
 * @skb: the frame, from its Ethernet header (consumed)
 * @loopback: it comes back to @sdev, whatever its destination MAC
 *
 * The engine transmits through the port, not the netdev: the netdev's
 * counters do not see it. A frame for the function's own MAC comes back
 * to it, as the hardware loops it back; none leaves a port whose link is
 * down.
 *
 * Context: process, under the engine lock.
 */
void isim_switch_send(struct isim_dev *sdev, struct sk_buff *skb, bool loopback)
{
	struct net_device *ndev = sdev->netdev;

	skb_reset_mac_header(skb);
	/*
	 * As from a netdev's transmit: a frame the host's stack takes must
	 * not have its answer sent from within netif_rx(), under the
	 * switch's lock.
	 */
	local_bh_disable();
	if (loopback || ether_addr_equal(skb_eth_hdr(skb)->h_dest, ndev->dev_addr)) {
		if (netif_running(ndev))
			isim_port_receive(sdev, skb);
	} else if (netif_carrier_ok(ndev)) {
		isim_switch_forward(ndev, skb);
	}
	local_bh_enable();
	consume_skb(skb);
}

/**
 * isim_netdev_rx - a frame the engine gave up goes to the function's netdev
 * @sdev: the simulated function
 * @skb: the frame, from its Ethernet header (consumed)
 *
 * Context: process, under the engine lock.
 */
void isim_netdev_rx(struct isim_dev *sdev, struct sk_buff *skb)
{
	local_bh_disable();
	isim_switch_deliver(skb, sdev->netdev);
	local_bh_enable();
	consume_skb(skb);
}

static int isim_netdev_open(struct net_device *ndev)
{
	netif_carrier_on(ndev);
	netif_start_queue(ndev);
	return 0;
}

static int isim_netdev_stop(struct net_device *ndev)
{
	netif_stop_queue(ndev);
	netif_carrier_off(ndev);
	return 0;
}

/* An E810-C for QSFP: 100 Gb/s over one QSFP28 port. */
static int isim_get_link_ksettings(struct net_device *ndev,
				   struct ethtool_link_ksettings *ks)
{
	ks->base.port = PORT_DA;
	ks->base.autoneg = AUTONEG_DISABLE;
	if (netif_carrier_ok(ndev)) {
		ks->base.speed = SPEED_100000;
		ks->base.duplex = DUPLEX_FULL;
	} else {
		ks->base.speed = SPEED_UNKNOWN;
		ks->base.duplex = DUPLEX_UNKNOWN;
	}
	return 0;
}

static const struct ethtool_ops isim_ethtool_ops = {
	.get_link = ethtool_op_get_link,
	.get_link_ksettings = isim_get_link_ksettings,
};

/* As ice: the netdev takes the MTU, the RDMA driver hears of it later. */
static int isim_netdev_change_mtu(struct net_device *ndev, int mtu)
{
	struct isim_dev *sdev = to_isim_dev(ndev->dev.parent);

	WRITE_ONCE(ndev->mtu, mtu);
	schedule_work(&sdev->mtu_work);
	return 0;
}

static const struct net_device_ops isim_netdev_ops = {
	.ndo_open = isim_netdev_open,
	.ndo_stop = isim_netdev_stop,
	.ndo_start_xmit = isim_netdev_xmit,
	.ndo_set_mac_address = eth_mac_addr,
	.ndo_validate_addr = eth_validate_addr,
	.ndo_change_mtu = isim_netdev_change_mtu,
};

/**
 * isim_netdev_create - create and register the function's netdev
 * @sdev: the simulated function
 *
 * The MAC address is fixed by the function's id, as a NIC's is by its
 * NVM: 02:1b:21:00:<id>, locally administered.
 *
 * Return: 0 or a negative errno.
 */
int isim_netdev_create(struct isim_dev *sdev)
{
	u8 mac[ETH_ALEN] = { 0x02, 0x1b, 0x21, 0x00, sdev->id >> 8, sdev->id };
	struct net_device *ndev;
	int err;

	ndev = alloc_etherdev(0);
	if (!ndev)
		return -ENOMEM;

	snprintf(ndev->name, IFNAMSIZ, "simeth%u", sdev->id);
	ndev->netdev_ops = &isim_netdev_ops;
	ndev->ethtool_ops = &isim_ethtool_ops;
	ndev->min_mtu = ETH_MIN_MTU;
	ndev->max_mtu = 9702;	/* the E810's largest frame less headers */
	eth_hw_addr_set(ndev, mac);
	SET_NETDEV_DEV(ndev, &sdev->dev);
	netif_carrier_off(ndev);

	err = register_netdev(ndev);
	if (err) {
		free_netdev(ndev);
		return err;
	}
	sdev->netdev = ndev;
	spin_lock_irq(&isim_switch_lock);
	list_add_tail(&sdev->port, &isim_switch_ports);
	spin_unlock_irq(&isim_switch_lock);
	return 0;
}

/**
 * isim_netdev_destroy - unregister and free the function's netdev
 * @sdev: the simulated function
 */
void isim_netdev_destroy(struct isim_dev *sdev)
{
	spin_lock_irq(&isim_switch_lock);
	list_del(&sdev->port);
	spin_unlock_irq(&isim_switch_lock);
	skb_queue_purge(&sdev->steer.rxq);
	unregister_netdev(sdev->netdev);
	free_netdev(sdev->netdev);
	sdev->netdev = NULL;
}
