# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours stock
# NVMe over RDMA on an iWARP function, in loopback on its address: the
# kernel's nvmet-rdma target over a RAM-backed null_blk namespace, the
# nvme-rdma host connected with nvme-cli (kernel QPs, connected by the
# iWARP connection manager), 64 MiB of random data written and read back
# the same; the target's RDMA reads use iWARP's read with local
# invalidate. Afterwards everything disconnects and unloads.
. "$IRDMA_REPO/tests/vm/lib.sh"
require nvme rdma ibv_devinfo

ADDR=192.168.81.1
NQN=irdma-iwarp-nvme

modprobe configfs 2>/dev/null
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config ||
	fail "no configfs"
modprobe -a ib_core ib_uverbs rdma_ucm iw_cm || fail "cannot load the RDMA stack"
load_sim nr_devices=0
if [ "$IRDMA_DRIVER" = ours ]; then
	echo "0 iwarp" >$SIM_BUS/new_device || fail "new_device"
	load_irdma_deps
	load_irdma
else
	load_sim_ice iwarp=1
	load_driver
fi
DEV=$(rdma_dev_of "$SIM_NETDEV")
[ -n "$DEV" ] || fail "no RDMA device on $SIM_NETDEV"
expect_eq "transport" "$(devinfo_field "$DEV" transport)" iWARP
ip link set "$SIM_NETDEV" up
ip addr add $ADDR/24 dev "$SIM_NETDEV" || fail "address on $SIM_NETDEV"
wait_for port_active "$DEV" || fail "$DEV not active"
modprobe null_blk nr_devices=1 memory_backed=1 gb=1 bs=4096 || fail "null_blk"

host_dev() { nvme_host_dev $NQN; }

nvmet_target_up $NQN $ADDR 0
modprobe nvme-rdma || fail "nvme-rdma"
timeout 120 nvme connect -t rdma -a $ADDR -s 4420 -n $NQN ||
	{ dmesg | tail -40; fail "nvme connect"; }
wait_for -t 20 host_dev || { dmesg | tail -30; fail "no namespace appeared"; }
dev=/dev/$(host_dev)
echo "host namespace $dev over $DEV"
dd if=/dev/urandom of=/tmp/pattern bs=1M count=64 status=none
timeout 300 dd if=/tmp/pattern of="$dev" bs=1M oflag=direct status=none ||
	fail "dd write"
timeout 300 dd if="$dev" of=/tmp/back bs=1M count=64 iflag=direct status=none ||
	fail "dd read"
expect_eq "64 MiB read back through nvme-rdma over iWARP" \
	"$(cmp /tmp/pattern /tmp/back && echo same)" same
nvme disconnect -n $NQN || fail "nvme disconnect"
wait_for -t 20 not host_dev || fail "namespace still there after disconnect"
rmmod nvme_rdma nvme_fabrics || fail "unload nvme-rdma"
nvmet_target_down $NQN
rmmod null_blk
expect_eq "QPs left on $DEV" "$(rdma resource show qp 2>/dev/null | grep -c "$DEV.*type RC")" 0
if [ "$IRDMA_DRIVER" = ours ]; then
	unload_irdma
	echo 0 >$SIM_BUS/del_device || fail "del_device"
else
	unload_driver
	rmmod irdma_sim_ice || fail "rmmod irdma_sim_ice"
fi
unload_sim
[ $CHECKS_FAILED -eq 0 ] || fail "$CHECKS_FAILED checks failed"
echo "PASS: NVMe over RDMA on an iWARP function"
