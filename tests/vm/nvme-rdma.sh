# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours stock
# NVMe over RDMA in loopback on the simulated function's address: the
# kernel's nvmet-rdma target over a RAM-backed null_blk namespace, the
# nvme-rdma host connected with nvme-cli; fio writes a pattern and reads it
# back verified. Run with nvmet-rdma's use_srq off, then on (but on the
# sanitizing kernel), then (our driver) on a function with the simulator's SRQ extension, where the
# target's receives go through shared receive queues. Afterwards
# everything disconnects and unloads with a clean kernel log.
. "$IRDMA_REPO/tests/vm/lib.sh"
require nvme fio rdma ibv_devinfo

ADDR=192.168.77.1
NQN=irdma-sim-nvme
# fio's random 4 KiB writes, verified: 4 MiB, 1 MiB on the sanitizing
# kernel (some 15 ms an I/O there; the paths are the same).
FIO_MIB=4
sanitizing && FIO_MIB=1

modprobe configfs 2>/dev/null
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config ||
	fail "no configfs"

# The address and a RAM-backed namespace, once irdma0 is there.
namespace_up() {
	ip link set "$SIM_NETDEV" up
	ip addr add $ADDR/24 dev "$SIM_NETDEV" || fail "address on $SIM_NETDEV"
	wait_for port_active irdma0 || fail "port not active"
	modprobe null_blk nr_devices=1 memory_backed=1 gb=1 bs=4096 ||
		fail "null_blk"
}

namespace_down() {
	rmmod null_blk
	ip addr del $ADDR/24 dev "$SIM_NETDEV"
}

load_stack
namespace_up

host_dev() { nvme_host_dev $NQN; }

run_io() {
	local srq=$1 dev

	echo "== use_srq=$srq"
	nvmet_target_up $NQN $ADDR "$srq"
	modprobe nvme-rdma || fail "nvme-rdma"
	timeout 120 nvme connect -t rdma -a $ADDR -s 4420 -n $NQN ||
		{ dmesg | tail -40; fail "nvme connect (use_srq=$srq)"; }
	wait_for -t 20 host_dev || fail "no namespace appeared (use_srq=$srq)"
	dev=/dev/$(host_dev)
	echo "host namespace $dev"
	if [ -n "${WANT_SRQS:-}" ]; then
		# The target's queues share receive queues on irdma0.
		n=$(rdma resource show srq 2>/dev/null | grep -c 'dev irdma0')
		[ "$n" -gt 0 ] || { rdma resource show srq; fail "nvmet-rdma created no SRQ"; }
		echo "ok: $n SRQs on irdma0 while connected"
	fi
	timeout 300 fio --name=verify --filename="$dev" --rw=randwrite --bs=4k \
		--iodepth=8 --ioengine=libaio --direct=1 --size=$FIO_MIB"m" \
		--verify=crc32c --do_verify=1 --verify_fatal=1 \
		--randrepeat=0 --output-format=terse >/tmp/fio.out 2>&1 ||
		{ cat /tmp/fio.out; fail "fio verify (use_srq=$srq)"; }
	echo "ok: fio wrote and verified $FIO_MIB MiB through $dev (use_srq=$srq)"
	# And a larger sequential pass with dd: bytes in, same bytes out.
	dd if=/dev/urandom of=/tmp/pattern bs=64k count=32 status=none
	dd if=/tmp/pattern of="$dev" bs=64k oflag=direct status=none ||
		fail "dd write (use_srq=$srq)"
	dd if="$dev" of=/tmp/back bs=64k count=32 iflag=direct status=none ||
		fail "dd read (use_srq=$srq)"
	expect_eq "2 MiB read back through nvme-rdma (use_srq=$srq)" \
		"$(cmp /tmp/pattern /tmp/back && echo same)" same
	nvme disconnect -n $NQN || fail "nvme disconnect"
	wait_for -t 20 not host_dev || fail "namespace still there after disconnect"
	rmmod nvme_rdma nvme_fabrics || fail "unload nvme-rdma"
	nvmet_target_down $NQN
}

run_io 0
# With use_srq on, nvmet-rdma shares receive queues if the device has SRQs.
# The E810 has none, so the driver sees what use_srq=0 showed it: not run
# again on the sanitizing kernel (the SRQ extension's round below is).
echo "device max_srq: $(devinfo_field irdma0 max_srq)"
sanitizing || run_io 1
expect_eq "QPs left on irdma0" "$(rdma resource show qp 2>/dev/null | grep -c 'irdma0.*type RC')" 0
namespace_down
unload_stack

# The E810 has no SRQs; the simulator's SRQ extension has. With it,
# nvmet-rdma's use_srq=1 puts every queue's receives on shared receive
# queues (our driver only: the stock one never looks for SRQs on E810).
if [ "$IRDMA_DRIVER" = ours ]; then
	modprobe -a ib_core ib_uverbs || fail "ib_core"
	load_sim nr_devices=1 srq=1
	load_irdma
	wait_for test -e /sys/class/infiniband/irdma0 || fail "no irdma0 with SRQs"
	expect_eq "device max_srq with the SRQ extension" \
		"$(devinfo_field irdma0 max_srq)" 1023
	namespace_up
	WANT_SRQS=1 run_io 1
	expect_eq "SRQs left on irdma0" \
		"$(rdma resource show srq 2>/dev/null | grep -c 'dev irdma0')" 0
	namespace_down
	unload_stack
fi
echo "PASS: nvme-rdma over irdma0 with use_srq off and on"
