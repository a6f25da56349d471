// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The engine's view of host memory: reads and writes at DMA addresses the
 * driver handed over. Addresses are checked page by page, so a bad address
 * from the driver is counted and refused, never dereferenced.
 */
#include <linux/dma-direct.h>
#include <linux/highmem.h>
#include <linux/ioport.h>
#include <linux/mm.h>

#include "sim.h"

/*
 * Host RAM, or NULL. A page the kernel allocates from (one with a struct
 * page, not reserved) stands for RAM, which every buffer a driver hands a
 * device is; MMIO has no struct page. Not page_is_ram(): the trap
 * (NMI-like) cannot take the resource lock it takes, and its walk of the
 * resource tree at every access made the engine's look at the SQs cost
 * ~100 us under TCG.
 */
static void *isim_dma_page(struct isim_dev *sdev, u64 addr)
{
	phys_addr_t phys = dma_to_phys(&sdev->dev, addr);
	unsigned long pfn = PHYS_PFN(phys);
	bool ram = pfn_valid(pfn) && !PageReserved(pfn_to_page(pfn));

	if (!ram) {
		sdev->stats.dma_faults++;
		return NULL;
	}
	return page_address(pfn_to_page(pfn)) + offset_in_page(phys);
}

static int isim_dma_copy(struct isim_dev *sdev, u64 addr, void *buf,
			 size_t len, bool to_host)
{
	while (len) {
		size_t chunk = min_t(size_t, len, PAGE_SIZE - offset_in_page(addr));
		void *host = isim_dma_page(sdev, addr);

		if (!host)
			return -EFAULT;
		if (to_host)
			memcpy(host, buf, chunk);
		else
			memcpy(buf, host, chunk);
		addr += chunk;
		buf += chunk;
		len -= chunk;
	}
	return 0;
}

/**
 * isim_dma_map - host memory the engine may touch without the checks of
 * each access, for paths that cannot take them (the trap's)
 * @sdev: the simulated function
 * @addr: DMA address of a physically contiguous block
 * @len: its length
 *
 * Every page is checked now; the block must stay allocated for as long as
 * the mapping is used (it is a queue the driver gave the device).
 *
 * Return: the block in the kernel's linear mapping, or NULL if any page
 * of it is not host RAM.
 */
void *isim_dma_map(struct isim_dev *sdev, u64 addr, size_t len)
{
	void *va = isim_dma_page(sdev, addr);
	u64 off;

	if (!va || !len)
		return NULL;
	for (off = PAGE_SIZE - offset_in_page(addr); off < len; off += PAGE_SIZE)
		if (isim_dma_page(sdev, addr + off) != va + off)
			return NULL;
	return va;
}

/**
 * isim_dma_read - copy from host memory, as the device's DMA engine would
 * @sdev: the simulated function
 * @addr: DMA address
 * @buf: destination
 * @len: bytes
 *
 * Return: 0, or -EFAULT for an address that is not host RAM.
 */
int isim_dma_read(struct isim_dev *sdev, u64 addr, void *buf, size_t len)
{
	return isim_dma_copy(sdev, addr, buf, len, false);
}

/**
 * isim_dma_write - copy into host memory
 * @sdev: the simulated function
 * @addr: DMA address
 * @buf: source
 * @len: bytes
 *
 * Return: 0, or -EFAULT for an address that is not host RAM.
 */
int isim_dma_write(struct isim_dev *sdev, u64 addr, const void *buf, size_t len)
{
	return isim_dma_copy(sdev, addr, (void *)buf, len, true);
}

/**
 * isim_dma_read_qword - read one little-endian qword of host memory
 * @sdev: the simulated function
 * @addr: DMA address, 8-byte aligned
 * @val: the value in CPU order
 *
 * Return: 0 or -EFAULT.
 */
int isim_dma_read_qword(struct isim_dev *sdev, u64 addr, u64 *val)
{
	__le64 *host = isim_dma_page(sdev, addr);

	if (!host || !IS_ALIGNED(addr, 8))
		return -EFAULT;
	*val = le64_to_cpu(READ_ONCE(*host));
	return 0;
}

/**
 * isim_dma_write_qword - write one little-endian qword of host memory
 * @sdev: the simulated function
 * @addr: DMA address, 8-byte aligned
 * @val: the value in CPU order
 *
 * A single store: the driver never sees half of it.
 *
 * Return: 0 or -EFAULT.
 */
int isim_dma_write_qword(struct isim_dev *sdev, u64 addr, u64 val)
{
	__le64 *host = isim_dma_page(sdev, addr);

	if (!host || !IS_ALIGNED(addr, 8))
		return -EFAULT;
	WRITE_ONCE(*host, cpu_to_le64(val));
	return 0;
}
