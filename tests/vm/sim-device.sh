# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# A simulated E810 comes up as irdma0 and answers as one: Debian's
# rdma-core sees its attributes, its port follows the netdev, events
# reach user space, and the function can be removed while bound.
. "$IRDMA_REPO/tests/vm/lib.sh"

load_irdma_deps
load_sim nr_devices=1
load_irdma
wait_for '[ -e /sys/class/infiniband/irdma0 ]' || fail "no irdma0"
ip link set simeth0 up

expect_eq "ibv_devices lists it" "$(ibv_devices | awk '$1 == "irdma0" { print $1 }')" irdma0
expect_eq "vendor_id" "$(devinfo_field irdma0 vendor_id)" 0x8086
expect_eq "vendor_part_id (E810-C QSFP)" "$(devinfo_field irdma0 vendor_part_id)" 5522
expect_eq "fw_ver" "$(devinfo_field irdma0 fw_ver)" 1.74
expect_eq "link_layer" "$(devinfo_field irdma0 link_layer)" Ethernet
expect_eq "transport" "$(devinfo_field irdma0 transport)" InfiniBand
expect_eq "max_qp" "$(devinfo_field irdma0 max_qp)" 4093
expect_eq "max_cq" "$(devinfo_field irdma0 max_cq)" 8189
expect_eq "max_qp_wr" "$(devinfo_field irdma0 max_qp_wr)" 4063
expect_eq "max_pkeys" "$(devinfo_field irdma0 max_pkeys)" 1
expect_eq "port state up" "$(devinfo_field irdma0 state)" PORT_ACTIVE
expect_eq "rdma link" "$(rdma link show irdma0/1 | grep -o 'netdev [a-z0-9]*')" "netdev simeth0"
expect_eq "port speed (100 Gb/s: 4X EDR)" "$(ibv_devinfo -v -d irdma0 | awk '$1 == "active_speed:" { print $2 }')" 25.0
expect_eq "port width" "$(devinfo_field irdma0 active_width)" 4X
expect_eq "node GUID from the MAC" "$(cat /sys/class/infiniband/irdma0/node_guid)" 001b:21ff:fe00:0000

# Port state follows the netdev; the event reaches user space.
ibv_asyncwatch -d irdma0 >/tmp/events 2>&1 &
watcher=$!
sleep 1
ip link set simeth0 down
wait_for 'grep -q PORT_ERR /tmp/events' 5 || fail "no PORT_ERR event: $(cat /tmp/events)"
expect_eq "port state down" "$(devinfo_field irdma0 state)" PORT_DOWN
ip link set simeth0 up
wait_for 'grep -q PORT_ACTIVE /tmp/events' 5 || fail "no PORT_ACTIVE event"
kill "$watcher"
wait "$watcher" 2>/dev/null
expect_eq "port state up again" "$(devinfo_field irdma0 state)" PORT_ACTIVE

# An iWARP function beside it.
echo "1 iwarp" >$SIM_BUS/new_device || fail "new_device"
wait_for '[ -e /sys/class/infiniband/irdma1 ]' || fail "no irdma1"
expect_eq "iWARP transport" "$(devinfo_field irdma1 transport)" iWARP
echo "2 ethernet" >$SIM_BUS/new_device 2>/dev/null && fail "unknown kind accepted"
echo "1 roce" >$SIM_BUS/new_device 2>/dev/null && fail "duplicate id accepted"

# Asynchronous events arrive on the AEQ's vector.
aeq_irqs() { awk '/irdma-irdma_sim0-AEQ/ { print $2 + $3 }' /proc/interrupts; }
before=$(aeq_irqs)
echo "0x102 5" >$SIM_DBG/irdma_sim0/raise_ae || fail "raise_ae"
wait_for '[ "$(aeq_irqs)" -gt "$before" ]' 5 || fail "AE raised no interrupt"
echo "ok: AE delivered"

# Removing a function while irdma is bound unregisters it.
echo 1 >$SIM_BUS/del_device || fail "del_device"
[ ! -e /sys/class/infiniband/irdma1 ] || fail "irdma1 still registered"
[ ! -e /sys/bus/irdma_sim/devices/irdma_sim1 ] || fail "irdma_sim1 still there"
echo "ok: hot removal"

unload_irdma
[ ! -e /sys/class/infiniband/irdma0 ] || fail "irdma0 outlived the driver"
unload_sim
