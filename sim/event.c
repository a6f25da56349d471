// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What the LAN side tells the driver of its RDMA function, as ice does
 * with its IIDC events: an MTU change (from ice's service task, after
 * the netdev took it), a change of the port's traffic classes (DCB: one
 * event before the new classes are applied, one after), and a critical
 * error of the engine (the OICR's cause bits in the event). The front
 * delivers them: the ice personality to the iidc_auxiliary_drv's handler,
 * the native front to the irdma_sim_aux_driver's.
 *
 * Tests raise them through debugfs ("event", "qos") and by changing the
 * netdev's MTU.
 */
#include "sim.h"

/**
 * isim_event_send - deliver an event to the function's driver
 * @sdev: the simulated function
 * @type: enum irdma_sim_event_type bits
 * @reg: for a critical error, the OICR
 *
 * Context: task; it waits for the handler, which may sleep a while (a
 * traffic class change suspends every QP).
 */
void isim_event_send(struct isim_dev *sdev, unsigned long type, u32 reg)
{
	might_sleep();
	mutex_lock(&sdev->front_lock);
	if (sdev->plugged && sdev->front->event) {
		sdev->stats.events++;
		sdev->front->event(sdev->front_priv, type, reg);
	}
	mutex_unlock(&sdev->front_lock);
}

static void isim_mtu_work(struct work_struct *work)
{
	struct isim_dev *sdev = container_of(work, struct isim_dev, mtu_work);

	isim_event_send(sdev, BIT(IRDMA_SIM_EVENT_AFTER_MTU), 0);
}

/**
 * isim_event_init - a function's event machinery, before it is plugged
 * @sdev: the simulated function
 */
void isim_event_init(struct isim_dev *sdev)
{
	mutex_init(&sdev->front_lock);
	INIT_WORK(&sdev->mtu_work, isim_mtu_work);
}

/**
 * isim_qos_get - the port's traffic classes
 * @sdev: the simulated function
 * @qos: filled in
 */
void isim_qos_get(struct isim_dev *sdev, struct irdma_sim_qos *qos)
{
	spin_lock(&sdev->lan.lock);
	*qos = sdev->lan.qos;
	spin_unlock(&sdev->lan.lock);
}

/**
 * isim_qos_set - configure the port's traffic classes, as DCB does
 * @sdev: the simulated function
 * @qos: the classes: 1 to 8 of them, every priority in one, shares
 *	adding up to 100
 *
 * The driver hears before and after, as ice tells it.
 *
 * Return: 0, or -EINVAL for a configuration ice would refuse.
 */
int isim_qos_set(struct isim_dev *sdev, const struct irdma_sim_qos *qos)
{
	u32 i, sum = 0;

	if (!qos->num_tc || qos->num_tc > ISIM_LAN_MAX_TC)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(qos->up2tc); i++)
		if (qos->up2tc[i] >= qos->num_tc)
			return -EINVAL;
	for (i = 0; i < qos->num_tc; i++)
		sum += qos->rel_bw[i];
	if (sum != 100)
		return -EINVAL;
	isim_event_send(sdev, BIT(IRDMA_SIM_EVENT_BEFORE_TC), 0);
	spin_lock(&sdev->lan.lock);
	sdev->lan.qos = *qos;
	spin_unlock(&sdev->lan.lock);
	isim_event_send(sdev, BIT(IRDMA_SIM_EVENT_AFTER_TC), 0);
	return 0;
}

/**
 * isim_event_parse - raise an event a debugfs write names
 * @sdev: the simulated function
 * @cmd: "mtu", "before-mtu", "tc-before", "tc-after", or
 *	"crit OICR [CRITERR]" (the value GLPE_CRITERR shows first)
 *
 * Return: 0, or -EINVAL for anything else.
 */
int isim_event_parse(struct isim_dev *sdev, const char *cmd)
{
	static const char * const names[] = {
		[IRDMA_SIM_EVENT_BEFORE_MTU] = "before-mtu",
		[IRDMA_SIM_EVENT_AFTER_MTU] = "mtu",
		[IRDMA_SIM_EVENT_BEFORE_TC] = "tc-before",
		[IRDMA_SIM_EVENT_AFTER_TC] = "tc-after",
	};
	u32 oicr, criterr;
	int i, n;

	n = sscanf(cmd, "crit %i %i", &oicr, &criterr);
	if (n >= 1) {
		if (n == 2)
			isim_wr32(sdev, IRDMA_GLPE_CRITERR, criterr);
		isim_event_send(sdev, BIT(IRDMA_SIM_EVENT_CRIT_ERR), oicr);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (sysfs_streq(cmd, names[i])) {
			isim_event_send(sdev, BIT(i), 0);
			return 0;
		}
	}
	return -EINVAL;
}
