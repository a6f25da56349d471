# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours stock
# A user MR on two 2 MiB pages out of physical order (tests/vm/mr-pages.c):
# inline RDMA writes through it land where they were sent and nowhere else
# in the MR, and complete without error. The device reads the MR's PBLEs
# by the page size REG_MR gives it. Then through libibverbs
# (tests/vm/mr-huge.c), MRs of four hugetlb and four transparent huge
# pages, out of physical order: RDMA writes, reads and sends at offsets
# inside every page, every byte compared.
# Then (tests/vm/mr-memcg.c) the kernel memory a user registration takes
# is charged to the user's memory cgroup: ours must charge the page list
# of queue memory; the stock driver's figure is printed (upstream does not
# charge it).
. "$IRDMA_REPO/tests/vm/lib.sh"
require ibv_devinfo
ADDR=192.168.77.1

thp=/sys/kernel/mm/transparent_hugepage/enabled
grep -q '\[never\]' $thp && echo madvise >$thp
echo 16 >/proc/sys/vm/nr_hugepages
[ "$(cat /proc/sys/vm/nr_hugepages)" -ge 8 ] || fail "no huge pages"

load_stack
roce_up $ADDR
dev=/dev/infiniband/$(basename "$(ls -d /sys/class/infiniband/irdma0/device/infiniband_verbs/uverbs* | head -1)")
"$TOOLS"/mr-pages "$dev" "/sys/class/infiniband/irdma0/ports/1/gids/$GIDX" ||
	fail "RDMA writes through a user MR on huge pages"
"$TOOLS"/mr-huge irdma0 "$GIDX" hugetlb 4 || fail "a user MR on hugetlb pages"
"$TOOLS"/mr-huge irdma0 "$GIDX" thp 4 || fail "a user MR on transparent huge pages"

cg=/sys/fs/cgroup
mountpoint -q $cg || mount -t cgroup2 none $cg || fail "no cgroup2"
echo +memory >$cg/cgroup.subtree_control || fail "no memory controller"
mkdir -p $cg/mr
charged=0
sh -c 'echo $$ >"$1/cgroup.procs" && exec "$IRDMA_TEST_TOOLS"/mr-memcg "$2" "$1" 256' mr-memcg \
	$cg/mr "$dev" && charged=1
rmdir $cg/mr
if [ "$IRDMA_DRIVER" = stock ]; then
	echo "stock: page list charged to the cgroup: $charged (upstream does not charge it)"
else
	[ $charged = 1 ] || fail "the page list of queue memory is not charged to the user's cgroup"
	echo "ok: the page list of queue memory is charged to the user's memory cgroup"
fi
ip addr del $ADDR/24 dev "$SIM_NETDEV"
unload_stack
echo 0 >/proc/sys/vm/nr_hugepages
echo "PASS: a user MR on huge pages ($IRDMA_DRIVER)"
