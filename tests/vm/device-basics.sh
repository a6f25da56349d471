# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours ours-ice stock
# Whichever driver binds the simulated E810, rdma-core sees the same
# device: its attributes, its port on the function's netdev, port events;
# the driver loads and unloads ten times with a clean kernel log.
. "$IRDMA_REPO/tests/vm/lib.sh"

echo "driver under test: $IRDMA_DRIVER"
load_stack
ip link set "$SIM_NETDEV" up

expect_eq "vendor_id" "$(devinfo_field irdma0 vendor_id)" 0x8086
expect_eq "vendor_part_id (E810-C QSFP)" "$(devinfo_field irdma0 vendor_part_id)" 5522
expect_eq "hw_ver" "$(devinfo_field irdma0 hw_ver)" 0x2
expect_eq "fw_ver" "$(devinfo_field irdma0 fw_ver)" 1.74
expect_eq "transport" "$(devinfo_field irdma0 transport)" InfiniBand
expect_eq "link_layer" "$(devinfo_field irdma0 link_layer)" Ethernet
expect_eq "max_qp" "$(devinfo_field irdma0 max_qp)" 4093
expect_eq "max_qp_wr" "$(devinfo_field irdma0 max_qp_wr)" 4063
expect_eq "max_cq" "$(devinfo_field irdma0 max_cq)" 8189
expect_eq "max_cqe" "$(devinfo_field irdma0 max_cqe)" 1048574
expect_eq "max_mr" "$(devinfo_field irdma0 max_mr)" 65535
expect_eq "max_pd" "$(devinfo_field irdma0 max_pd)" 262141
expect_eq "max_ah" "$(devinfo_field irdma0 max_ah)" 131072
expect_eq "max_sge" "$(devinfo_field irdma0 max_sge)" 13
expect_eq "max_qp_rd_atom" "$(devinfo_field irdma0 max_qp_rd_atom)" 127
expect_eq "max_qp_init_rd_atom" "$(devinfo_field irdma0 max_qp_init_rd_atom)" 255
expect_eq "max_pkeys" "$(devinfo_field irdma0 max_pkeys)" 1
expect_eq "port state" "$(devinfo_field irdma0 state)" PORT_ACTIVE
expect_eq "active_mtu" "$(devinfo_field irdma0 active_mtu)" 1024
expect_eq "gid_tbl_len" "$(devinfo_field irdma0 gid_tbl_len)" 32
expect_eq "rdma link" "$(rdma link show irdma0/1 | grep -o 'netdev [a-z0-9]*')" "netdev $SIM_NETDEV"

ibv_asyncwatch -d irdma0 >/tmp/events 2>&1 &
watcher=$!
sleep 1
ip link set "$SIM_NETDEV" down
wait_for 'grep -q PORT_ERR /tmp/events' 5 || fail "no PORT_ERR event"
expect_eq "port state down" "$(devinfo_field irdma0 state)" PORT_DOWN
ip link set "$SIM_NETDEV" up
wait_for 'grep -q PORT_ACTIVE /tmp/events' 5 || fail "no PORT_ACTIVE event"
kill "$watcher"
wait "$watcher" 2>/dev/null

for i in $(seq 1 10); do
	unload_driver
	[ ! -e /sys/class/infiniband/irdma0 ] || fail "cycle $i: irdma0 outlived the driver"
	load_driver
	wait_for '[ -e /sys/class/infiniband/irdma0 ]' || fail "cycle $i: no irdma0"
done
echo "ok: 10 load/unload cycles"
unload_stack
