# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours stock
# kernel: debian
# The kernel verbs benchmark (bench/irdma_bench.ko) on a simulated E810:
# prints its numbers; only a benchmark that could not run fails. Both
# drivers run it on Debian's kernel: the sanitizing kernel's numbers would
# measure its instrumentation.
. "$IRDMA_REPO/tests/vm/lib.sh"
require ibv_devinfo

load_stack
ip link set "$SIM_NETDEV" up
wait_for port_active irdma0 || fail "port not active"
since=$(dmesg | wc -l)
insmod "$IRDMA_MODULES/bench/irdma_bench.ko" dev=irdma0 "$@" || fail "irdma_bench did not run"
dmesg | tail -n +"$((since + 1))" | sed -n 's/.*irdma_bench: //p'
expect_eq "measurements printed" \
	"$(dmesg | tail -n +"$((since + 1))" | grep -c 'irdma_bench: .* ns/op')" 5
rmmod irdma_bench
unload_stack
