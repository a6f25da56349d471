// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The function's MSI-X vectors: real Linux IRQs, allocated as software
 * interrupt descriptors. The driver request_irq()s them as it would MSI-X
 * vectors of silicon; the engine raises them.
 */
#include <linux/interrupt.h>
#include <linux/irq.h>

#include "sim.h"

/**
 * sim_irqs_alloc - allocate the function's interrupt vectors
 * @sdev: the simulated function
 *
 * Return: 0 or a negative errno.
 */
int sim_irqs_alloc(struct sim_dev *sdev)
{
	int base, i;

	base = irq_alloc_descs(-1, 0, SIM_MSIX_COUNT, NUMA_NO_NODE);
	if (base < 0)
		return base;

	sdev->irq_base = base;
	for (i = 0; i < SIM_MSIX_COUNT; i++) {
		irq_set_chip_and_handler(base + i, &dummy_irq_chip,
					 handle_simple_irq);
		irq_modify_status(base + i, IRQ_NOREQUEST | IRQ_NOAUTOEN,
				  IRQ_NOPROBE);
		sdev->msix[i].vector = base + i;
		sdev->msix[i].entry = i;
	}
	return 0;
}

/**
 * sim_irqs_free - release the function's interrupt vectors
 * @sdev: the simulated function; no vector may still be requested
 */
void sim_irqs_free(struct sim_dev *sdev)
{
	int i;

	for (i = 0; i < SIM_MSIX_COUNT; i++)
		irq_set_chip_and_handler(sdev->irq_base + i, NULL, NULL);
	irq_free_descs(sdev->irq_base, SIM_MSIX_COUNT);
}

/**
 * sim_irq_raise - deliver an interrupt on one of the function's vectors
 * @sdev: the simulated function
 * @vector: index into the MSI-X table
 */
void sim_irq_raise(struct sim_dev *sdev, unsigned int vector)
{
	if (vector < SIM_MSIX_COUNT)
		generic_handle_irq_safe(sdev->msix[vector].vector);
}
