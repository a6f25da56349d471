# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours ours-ice stock
# Whichever driver binds the simulated E810, rdma-core sees the same
# device: its attributes, its port on the function's netdev, port events;
# the driver loads and unloads ten times with a clean kernel log.
. "$IRDMA_REPO/tests/vm/lib.sh"
require ibv_devinfo ibv_asyncwatch rdma

echo "driver under test: $IRDMA_DRIVER"
load_stack
ip link set "$SIM_NETDEV" up
wait_for port_active irdma0 || fail "port not active"

devinfo_load irdma0
expect_eq "vendor_id" "${DEVINFO[vendor_id]}" 0x8086
expect_eq "vendor_part_id (E810-C QSFP)" "${DEVINFO[vendor_part_id]}" 5522
expect_eq "hw_ver" "${DEVINFO[hw_ver]}" 0x2
expect_eq "fw_ver" "${DEVINFO[fw_ver]}" 1.74
expect_eq "transport" "${DEVINFO[transport]}" InfiniBand
expect_eq "link_layer" "${DEVINFO[link_layer]}" Ethernet
expect_eq "max_qp" "${DEVINFO[max_qp]}" 4093
expect_eq "max_qp_wr" "${DEVINFO[max_qp_wr]}" 4063
expect_eq "max_cq" "${DEVINFO[max_cq]}" 8189
expect_eq "max_cqe" "${DEVINFO[max_cqe]}" 1048574
expect_eq "max_mr" "${DEVINFO[max_mr]}" 65535
expect_eq "max_pd" "${DEVINFO[max_pd]}" 262141
expect_eq "max_ah" "${DEVINFO[max_ah]}" 131072
expect_eq "max_sge" "${DEVINFO[max_sge]}" 13
expect_eq "max_qp_rd_atom" "${DEVINFO[max_qp_rd_atom]}" 127
expect_eq "max_qp_init_rd_atom" "${DEVINFO[max_qp_init_rd_atom]}" 255
expect_eq "max_pkeys" "${DEVINFO[max_pkeys]}" 1
expect_eq "port state" "${DEVINFO[state]}" PORT_ACTIVE
expect_eq "active_mtu" "${DEVINFO[active_mtu]}" 1024
expect_eq "gid_tbl_len" "${DEVINFO[gid_tbl_len]}" 32
expect_eq "rdma link" "$(rdma link show irdma0/1 | grep -o 'netdev [a-z0-9]*')" "netdev $SIM_NETDEV"

ibv_asyncwatch -d irdma0 >/tmp/events 2>&1 &
watcher=$!
# It takes events once it has the device open, which it says (a loaded
# host can take more than a second to get there).
wait_for -t 20 grep -q "async event FD" /tmp/events || fail "ibv_asyncwatch never started"
ip link set "$SIM_NETDEV" down
wait_for -t 5 grep -q PORT_ERR /tmp/events || fail "no PORT_ERR event"
expect_eq "port state down" "$(devinfo_field irdma0 state)" PORT_DOWN
ip link set "$SIM_NETDEV" up
wait_for -t 5 grep -q PORT_ACTIVE /tmp/events || fail "no PORT_ACTIVE event"
kill "$watcher"
wait "$watcher" 2>/dev/null

# The driver is loaded: each cycle unloads it, then loads it again.
no_device() {
	[ ! -e /sys/class/infiniband/irdma0 ] || fail "cycle $1: irdma0 outlived the driver"
}
device_back() {
	wait_for test -e /sys/class/infiniband/irdma0 || fail "cycle $1: no irdma0"
}
cycles 10 unload_driver load_driver no_device device_back
unload_stack
