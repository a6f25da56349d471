# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours stock
# Malformed user requests (tests/vm/bad-udata.c, raw uverbs commands):
# each fails with its errno, the kernel logs no warning (the VM runner
# checks), and no resource is left behind.
. "$IRDMA_REPO/tests/vm/lib.sh"

gcc -O2 -Wall -o /tmp/bad-udata "$IRDMA_REPO/tests/vm/bad-udata.c" || fail "build bad-udata"
load_stack
ip link set "$SIM_NETDEV" up
dev=/dev/infiniband/$(basename "$(ls -d /sys/class/infiniband/irdma0/device/infiniband_verbs/uverbs* |
				   head -1)")
[ -c "$dev" ] || fail "no uverbs device for irdma0"
/tmp/bad-udata "$dev" || fail "bad-udata: some request did not fail as it should"
for r in qp cq mr pd; do
	expect_eq "$r objects of user space left" \
		"$(rdma resource show "$r" 2>/dev/null | grep irdma0 | grep -vc 'comm \[ib_core\]')" 0
done
unload_stack
echo "PASS: malformed requests refused ($IRDMA_DRIVER)"
