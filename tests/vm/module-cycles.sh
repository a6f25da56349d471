# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours stock
# irdma.ko loads into the kernel beside the real ice and i40e, registers
# its front-ends with the auxiliary bus, and unloads without a trace, ten
# times over.
. "$IRDMA_REPO/tests/vm/lib.sh"

load_irdma_deps
ko=$IRDMA_KO
if [ "$IRDMA_DRIVER" = stock ]; then
	load_stock
	unload_driver
	ko=$STOCK_KO
fi
expect_eq "vermagic" "$(modinfo -F vermagic "$ko" | cut -d' ' -f1)" "$(uname -r)"

loaded() {
	expect_eq "cycle $1: module live" "$(cat /sys/module/irdma/initstate)" live
	[ -d /sys/bus/auxiliary/drivers/irdma ] || fail "cycle $1: no E810 driver on the auxiliary bus"
	[ -d /sys/bus/auxiliary/drivers/irdma.gen_1 ] || fail "cycle $1: no X722 driver on the auxiliary bus"
}
unloaded() {
	[ ! -e /sys/module/irdma ] || fail "cycle $1: module still present"
	[ ! -e /sys/bus/auxiliary/drivers/irdma ] || fail "cycle $1: E810 driver left registered"
	[ ! -e /sys/bus/auxiliary/drivers/irdma.gen_1 ] || fail "cycle $1: X722 driver left registered"
}
cycles 10 load_driver unload_driver loaded unloaded
