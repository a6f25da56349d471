# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours stock
# Malformed user requests (tests/vm/bad-udata.c, raw uverbs commands):
# each fails with its errno, the kernel logs no warning (the VM runner
# checks), and no resource is left behind; the kernel's writes into the
# doorbell page are not taken as the process's. Then, for our driver in push
# mode, a user QP's push pages from RTS to its destruction.
. "$IRDMA_REPO/tests/vm/lib.sh"
require rdma ibv_devinfo

# irdma0's uverbs character device.
uverbs_dev() {
	local d=/sys/class/infiniband/irdma0/device/infiniband_verbs

	echo "/dev/infiniband/$(basename "$(ls -d $d/uverbs* | head -1)")"
}

# User objects irdma0 has of a kind (not ib_core's own).
user_objects() {
	rdma resource show "$1" 2>/dev/null | grep irdma0 | grep -vc 'comm \[ib_core\]'
}

# Requests upstream irdma is known to accept are left out for it.
[ "$IRDMA_DRIVER" = stock ] && export BAD_UDATA_STOCK=1
load_stack
ip link set "$SIM_NETDEV" up
dev=$(uverbs_dev)
[ -c "$dev" ] || fail "no uverbs device for irdma0"
"$TOOLS"/bad-udata "$dev" || fail "bad-udata: some request did not fail as it should"
for r in qp cq mr pd; do
	expect_eq "$r objects of user space left" "$(user_objects "$r")" 0
done

# The kernel writing into the doorbell page on the process's behalf (a
# read() into it) is not the process ringing: the simulator's watchpoint
# takes user mode stores only.
"$TOOLS"/bad-udata "$dev" doorbell "$SIM_DBG/$SIM_FN/stats" ||
	fail "bad-udata: the doorbell page written by the kernel"

# Our driver in push mode: a user QP's push pages and their mmap entries.
if [ "$IRDMA_DRIVER" = ours ]; then
	unload_irdma
	load_irdma push_mode=1
	wait_for test -e /sys/class/infiniband/irdma0 || fail "no irdma0 in push mode"
	roce_up 192.168.77.1
	dev=$(uverbs_dev)
	"$TOOLS"/bad-udata "$dev" push "/sys/class/infiniband/irdma0/ports/1/gids/$GIDX" ||
		fail "bad-udata: push pages"
	expect_eq "QPs of user space left" "$(user_objects qp)" 0
	ip addr del 192.168.77.1/24 dev "$SIM_NETDEV"
fi
unload_stack
echo "PASS: malformed requests refused ($IRDMA_DRIVER)"
