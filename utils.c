// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Helpers shared across the driver.
 */
#include "main.h"

/**
 * irdma_addr_ntoh - IP address words from network to host order
 * @dst: host-order words, as the hardware's address fields take them
 * @src: network-order words (1 for IPv4, 4 for IPv6)
 * @words: number of 32-bit words
 */
void irdma_addr_ntoh(u32 *dst, const __be32 *src, unsigned int words)
{
	unsigned int i;

	for (i = 0; i < words; i++)
		dst[i] = be32_to_cpu(src[i]);
}

/**
 * irdma_addr_hton - IP address words from host to network order
 * @dst: network-order words
 * @src: host-order words
 * @words: number of 32-bit words
 */
void irdma_addr_hton(__be32 *dst, const u32 *src, unsigned int words)
{
	unsigned int i;

	for (i = 0; i < words; i++)
		dst[i] = cpu_to_be32(src[i]);
}
