# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# drivers: ours stock
# Debian's rdma-core, unmodified, on irdma0: the libibverbs examples and
# perftest over RC and UD (with and without inline data, across message
# sizes). user-cm.sh has the rdma_cm tools and repeated runs.
. "$IRDMA_REPO/tests/vm/lib.sh"
require ib_send_bw ib_send_lat ib_write_bw ib_write_lat ib_read_bw ib_read_lat ibv_rc_pingpong ibv_ud_pingpong ibv_devinfo rdma ss

ADDR=192.168.77.1
load_stack
roce_up $ADDR

# The simulator's per-process doorbell watchpoints count toward perf's
# scheduler hook (a static key patched into __schedule); it holds the hook
# on from load to unload, so no program coming or going patches kernel
# text (under TCG, a vCPU once ran a patch's stale int3). perf turns the
# hook off in perf_sched_delayed(): counted from here to the unload.
T=/sys/kernel/tracing
mountpoint -q $T || mount -t tracefs tracefs $T || fail "no tracefs"
echo 'p:irdma_test/sched_hook_off perf_sched_delayed' >>$T/kprobe_events ||
	fail "a probe on perf_sched_delayed"
echo 1 >$T/events/irdma_test/sched_hook_off/enable
hook_offs() { awk '$1 == "sched_hook_off" { print $2 }' $T/kprobe_profile; }

ibv_devinfo -v -d irdma0 >/tmp/devinfo || fail "ibv_devinfo -v"
expect_eq "ibv_devinfo transport" "$(awk '/transport:/ { print $2; exit }' /tmp/devinfo)" "InfiniBand"
expect_eq "ibv_devinfo link layer" "$(awk '/link_layer:/ { print $2; exit }' /tmp/devinfo)" "Ethernet"

# The largest CQ the device reports is made (tests/vm/cq-max.c); one entry
# more: libirdma 44 passes it on as a ring of 2^21 slots, past the size
# field; ours refuses it, the stock driver hands it to the device.

"$TOOLS"/cq-max irdma0 >/tmp/cq-max.out || { cat /tmp/cq-max.out; fail "a CQ of max_cqe entries"; }
cat /tmp/cq-max.out
over=$(sed -n 's/^over: //p' /tmp/cq-max.out)
if [ "$IRDMA_DRIVER" = stock ]; then
	echo "stock: a CQ of max_cqe + 1 entries fails with errno $over"
else
	expect_eq "errno of a CQ of max_cqe + 1 entries" "$over" 22
fi

# A type 1 memory window as applications bind it (tests/vm/mw-bind.c):
# writes and reads through its key, its bounds, no invalidation.

"$TOOLS"/mw-bind irdma0 "$GIDX" || fail "a type 1 memory window"

# Run a server in the background and its client; both must succeed.

pair rc_pingpong ibv_rc_pingpong -d irdma0 -g "$GIDX" -n 50 -c
pair ud_pingpong ibv_ud_pingpong -d irdma0 -g "$GIDX" -n 50 -s 512 -c
grep -h 'iters in' /tmp/cli.rc_pingpong /tmp/cli.ud_pingpong

PT="-d irdma0 -x $GIDX -F"
# Every size to 8 MiB, 10 times each. On the sanitizing kernel, where
# these three sweeps were most of the test's time (each size is a
# handshake and a pass over the simulator's copies under KASAN), the send
# sweeps every size 5 times (perftest's least) and writes and reads move
# 8 MiB alone: in the driver every size is the same one-SGE WQE, and the
# stock driver sweeps them all on Debian's kernel.
sweep=(-a -n 10)
sanitizing && sweep=(-a -n 5)
for t in ib_send_bw ib_write_bw ib_read_bw; do
	pair "$t -a" $t $PT "${sweep[@]}"
	grep -E '^ +8388608 ' "/tmp/cli.${t}_-a" || fail "$t did not reach 8 MiB"
	sanitizing && sweep=(-s 8388608 -n 5)
done
pair "ib_send_bw inline" ib_send_bw $PT -I 64 -s 64 -n 200
pair "ib_write_bw inline" ib_write_bw $PT -I 64 -s 64 -n 200
pair "ib_send_bw UD" ib_send_bw $PT -c UD -s 1024 -n 200
# perftest's default inline size for the _lat tests is beyond the E810's
# 101 bytes (the stock driver refuses it the same way): ask for 64.
runs=$(sim_stat user_sq_runs_in_process)
pair ib_send_lat ib_send_lat $PT -s 64 -n 200 -I 64
pair ib_write_lat ib_write_lat $PT -s 64 -n 200 -I 64
pair ib_read_lat ib_read_lat $PT -s 64 -n 200
# A process that rings its SQ's doorbell runs its short WQEs itself on the
# way back to user space (the simulator's stand-in for silicon starting at
# once); each _lat run above rings 400 times or more.
runs=$(($(sim_stat user_sq_runs_in_process) - runs))
echo "user doorbells served by the ringing process: $runs;" \
	"left to threads: $(sim_stat user_sq_left_to_threads)"
[ "$runs" -gt 0 ] || fail "no trapped user doorbell was served by its process"
grep -h -A1 -E '^ #bytes' /tmp/cli.ib_send_bw_-a | head -3

# Each program's watchpoint goes when the next one maps its doorbells.
expect_eq "perf's scheduler hook turned off while the simulator is loaded" "$(hook_offs)" 0
echo 0 >$T/events/irdma_test/sched_hook_off/enable
echo '-:irdma_test/sched_hook_off' >>$T/kprobe_events

ip addr del $ADDR/24 dev "$SIM_NETDEV"
unload_stack
echo "PASS: rdma-core on irdma0 ($IRDMA_DRIVER)"
