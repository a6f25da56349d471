# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours ours-ice stock
# What the simulated E810 does beside its verbs: its identity, what its LAN
# driver set up for it, asynchronous events on their vector, an iWARP
# function beside a RoCE one, and the function going away while the driver
# is bound.
. "$IRDMA_REPO/tests/vm/lib.sh"
require ibv_devinfo

load_stack
ip link set "$SIM_NETDEV" up

# The MAC and so the GUID follow the function's number.
id=${SIM_FN#irdma_sim}
expect_eq "node GUID from the MAC" "$(cat /sys/class/infiniband/irdma0/node_guid)" \
	"$(printf '001b:21ff:fe00:%04x' "$id")"
expect_eq "port speed (100 Gb/s: 4X EDR)" \
	"$(ibv_devinfo -v -d irdma0 | awk '$1 == "active_speed:" { print $2 }')" 25.0
expect_eq "port width" "$(devinfo_field irdma0 active_width)" 4X

# The LAN side's contract: the RoCE function's first QP (ib_mad's QP1,
# made at registration) has its queue set attached to the transmit
# scheduler, and RoCE packets are steered to the engine; both undone when
# the driver lets the function go (ice_add_rdma_qset/ice_del_rdma_qset and
# ice_rdma_update_vsi_filter on silicon), in class 0 with all of the port
# (DCB off). The queue set's handle is the scheduler's to choose.
lan() { sed 's/^qset [0-9]* /qset H /' $SIM_DBG/$SIM_FN/lan | tr '\n' ' '; }
expect_eq "LAN side with the driver bound" "$(lan)" \
	"qsets 1 rdma_filter 1 qset H tc 0 weight 100 "
unload_driver
expect_eq "LAN side after the driver" "$(lan)" "qsets 0 rdma_filter 0 "
load_driver
wait_for test -e /sys/class/infiniband/irdma0 || fail "no irdma0 after reload"

# Asynchronous events arrive on the AEQ's vector (vector 0).
# (the counts of every CPU, however many the guest has)
aeq_irqs() {
	awk '/irdma.*AEQ/ { n = 0; for (i = 2; $i ~ /^[0-9]+$/; i++) n += $i; print n; exit }' \
		/proc/interrupts
}
aeq_irqs_above() { [ "$(aeq_irqs)" -gt "$1" ]; }
before=$(aeq_irqs)
[ -n "$before" ] || fail "no AEQ interrupt line in /proc/interrupts"
echo "0x102 5" >$SIM_DBG/$SIM_FN/raise_ae || fail "raise_ae"
wait_for -t 5 aeq_irqs_above "$before" || fail "AE raised no interrupt"
echo "ok: AE delivered"

if [ "$IRDMA_DRIVER" = ours ]; then
	# An iWARP function beside it, created at run time.
	echo "1 iwarp" >$SIM_BUS/new_device || fail "new_device"
	wait_for test -e /sys/class/infiniband/irdma1 || fail "no irdma1"
	expect_eq "iWARP transport" "$(devinfo_field irdma1 transport)" iWARP
	echo "2 ethernet" >$SIM_BUS/new_device 2>/dev/null && fail "unknown kind accepted"
	echo "1 roce" >$SIM_BUS/new_device 2>/dev/null && fail "duplicate id accepted"
	echo 1 >$SIM_BUS/del_device || fail "del_device"
	[ ! -e /sys/class/infiniband/irdma1 ] || fail "irdma1 still registered"
	echo 9 >$SIM_BUS/del_device 2>/dev/null && fail "removing a missing function succeeded"
fi

# The function goes away under the bound driver.
if [ "$IRDMA_DRIVER" = ours ]; then
	echo 0 >$SIM_BUS/del_device || fail "del_device"
else
	echo 0000:00:01.0 >/sys/bus/pci/drivers/irdma_sim_ice/unbind || fail "PCI unbind"
fi
[ ! -e /sys/class/infiniband/irdma0 ] || fail "irdma0 still registered"
[ ! -e "/sys/bus/irdma_sim/devices/$SIM_FN" ] || fail "$SIM_FN still there"
grep -q 'irdma-' /proc/interrupts && fail "IRQs left requested"
echo "ok: hot removal"

unload_stack
