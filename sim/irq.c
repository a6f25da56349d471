// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The function's MSI-X vectors: real Linux IRQs, allocated as software
 * interrupt descriptors. The driver request_irq()s them as it would MSI-X
 * vectors of silicon; the engine raises them.
 *
 * An MSI-X message is a hard interrupt on a CPU, and the kernel runs the
 * softirqs it raised (a driver's tasklet) as it leaves that interrupt. So
 * the engine delivers its vectors from an irq_work (hard interrupt
 * context, on the raising CPU at once), not from its own thread: there a
 * handler's tasklet was only marked pending, and ran when ksoftirqd, below
 * the engine's real-time threads, got the CPU (seen: up to a millisecond
 * later, half of the stock driver's tasklets).
 */
#include <kunit/visibility.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irq_work.h>

#include "sim.h"

/* The irq_work: each vector raised since it last ran, as a hard interrupt. */
static void isim_irq_deliver(struct irq_work *work)
{
	struct isim_dev *sdev = container_of(work, struct isim_dev, irq_work);
	unsigned long pending;
	unsigned int i;

	while ((pending = xchg(&sdev->irq_pending, 0)))
		for_each_set_bit(i, &pending, ISIM_MSIX_COUNT)
			generic_handle_irq(sdev->msix[i].vector);
}

/**
 * isim_irqs_alloc - allocate the function's interrupt vectors
 * @sdev: the simulated function
 *
 * Return: 0 or a negative errno.
 */
int isim_irqs_alloc(struct isim_dev *sdev)
{
	int base, i;

	BUILD_BUG_ON(ISIM_MSIX_COUNT > BITS_PER_LONG);
	init_irq_work(&sdev->irq_work, isim_irq_deliver);

	base = irq_alloc_descs(-1, 0, ISIM_MSIX_COUNT, NUMA_NO_NODE);
	if (base < 0)
		return base;

	sdev->irq_base = base;
	for (i = 0; i < ISIM_MSIX_COUNT; i++) {
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
 * isim_irqs_free - release the function's interrupt vectors
 * @sdev: the simulated function; no vector may still be requested
 */
void isim_irqs_free(struct isim_dev *sdev)
{
	int i;

	irq_work_sync(&sdev->irq_work);

	for (i = 0; i < ISIM_MSIX_COUNT; i++)
		irq_set_chip_and_handler(sdev->irq_base + i, NULL, NULL);
	irq_free_descs(sdev->irq_base, ISIM_MSIX_COUNT);
}

/**
 * isim_irq_raise - deliver an interrupt on one of the function's vectors
 * @sdev: the simulated function
 * @vector: index into the MSI-X table
 *
 * Context: any; the interrupt comes as soon as this CPU takes interrupts.
 */
void isim_irq_raise(struct isim_dev *sdev, unsigned int vector)
{
	if (vector >= ISIM_MSIX_COUNT)
		return;
	set_bit(vector, &sdev->irq_pending);
	irq_work_queue(&sdev->irq_work);
}
EXPORT_SYMBOL_IF_KUNIT(isim_irq_raise);
