# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours stock
# A user MR on two 2 MiB pages out of physical order (tests/vm/mr-pages.c):
# inline RDMA writes through it land where they were sent and nowhere else
# in the MR, and complete without error. The device reads the MR's PBLEs
# by the page size REG_MR gives it.
. "$IRDMA_REPO/tests/vm/lib.sh"
ADDR=192.168.77.1

gcc -O2 -Wall -o /tmp/mr-pages "$IRDMA_REPO/tests/vm/mr-pages.c" || fail "build mr-pages"
echo 8 >/proc/sys/vm/nr_hugepages
[ "$(cat /proc/sys/vm/nr_hugepages)" -ge 4 ] || fail "no huge pages"

load_stack
roce_up $ADDR
dev=/dev/infiniband/$(basename "$(ls -d /sys/class/infiniband/irdma0/device/infiniband_verbs/uverbs* | head -1)")
/tmp/mr-pages "$dev" "/sys/class/infiniband/irdma0/ports/1/gids/$GIDX" ||
	fail "RDMA writes through a user MR on huge pages"
ip addr del $ADDR/24 dev "$SIM_NETDEV"
unload_stack
echo 0 >/proc/sys/vm/nr_hugepages
echo "PASS: a user MR on huge pages ($IRDMA_DRIVER)"
