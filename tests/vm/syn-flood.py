#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""A SYN flood from addresses nobody owns, as raw Ethernet frames, and
what comes back to them.

  syn-flood.py IFACE DST_MAC DST_IP DST_PORT SRC_FIRST COUNT SECONDS

Sends COUNT SYNs to DST_IP:DST_PORT through IFACE (a packet socket: the
host's stack neither sends them nor answers what comes back), each from
its own address (SRC_FIRST and those after it, at most 240) and its own
port. The answers go to IFACE's MAC, for addresses the host does not own:
its stack drops them, so the connections stay half-open. For SECONDS it
counts, per flooding address, the SYN-ACKs and RSTs that came back and
the ARP requests asking for it; SIGTERM or SIGINT ends the count early.
Prints "synack N (M in all)" (addresses answered, and segments; also as
they come), "rst N" and "arp N".
"""
import signal
import socket
import struct
import sys
import time

ETH_P_ALL = 0x0003
ETH_P_IP = 0x0800
ETH_P_ARP = 0x0806


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack(f"!{len(data) // 2}H", data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def syn(src_mac, dst_mac, src_ip, dst_ip, sport, dport, seq):
    # MSS 1460 and window scale 7: what a Linux peer offers.
    opts = struct.pack("!BBH", 2, 4, 1460) + struct.pack("!BBBB", 1, 3, 3, 7)
    tcp = struct.pack("!HHIIBBHHH", sport, dport, seq, 0,
                      (5 + len(opts) // 4) << 4, 0x02, 64240, 0, 0) + opts
    pseudo = src_ip + dst_ip + struct.pack("!BBH", 0, 6, len(tcp))
    tcp = tcp[:16] + struct.pack("!H", csum(pseudo + tcp)) + tcp[18:]
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(tcp), 0, 0x4000,
                     64, 6, 0, src_ip, dst_ip)
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    return dst_mac + src_mac + struct.pack("!H", ETH_P_IP) + ip + tcp


def main():
    if len(sys.argv) != 8:
        print(__doc__)
        return 1
    iface, dst_mac_s, dst_ip_s, dport, src_first, count, seconds = sys.argv[1:]
    dport, count, seconds = int(dport), min(int(count), 240), float(seconds)
    dst_mac = bytes.fromhex(dst_mac_s.replace(":", ""))
    dst_ip = socket.inet_aton(dst_ip_s)
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    sock.bind((iface, 0))
    src_mac = sock.getsockname()[4]
    first = struct.unpack("!I", socket.inet_aton(src_first))[0]
    srcs = {struct.pack("!I", first + i): 40000 + i for i in range(count)}

    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    for i, (ip, port) in enumerate(srcs.items()):
        sock.send(syn(src_mac, dst_mac, ip, dst_ip, port, dport, 1000 * i))
    print(f"sent {count}", flush=True)

    synack, rst, arp = set(), set(), set()
    segs = 0
    sock.settimeout(0.2)
    end = time.monotonic() + seconds
    while not stop and time.monotonic() < end:
        try:
            pkt = sock.recv(2048)
        except socket.timeout:
            continue
        except InterruptedError:
            continue
        ethertype = struct.unpack("!H", pkt[12:14])[0]
        if ethertype == ETH_P_ARP and len(pkt) >= 42 and pkt[20:22] == b"\0\1":
            if pkt[38:42] in srcs:
                arp.add(pkt[38:42])
            continue
        if ethertype != ETH_P_IP:
            continue
        ip = pkt[14:]
        if len(ip) < 40 or ip[9] != 6 or ip[12:16] != dst_ip:
            continue
        dst = ip[16:20]
        if dst not in srcs:
            continue
        tcp = ip[(ip[0] & 0xF) * 4:]
        sport, tport = struct.unpack("!HH", tcp[:4])
        if sport != dport or tport != srcs[dst]:
            continue
        flags = tcp[13]
        if flags & 0x04:
            rst.add(dst)
        elif flags & 0x12 == 0x12:
            synack.add(dst)
            segs += 1
            print(f"synack {len(synack)} ({segs} in all)", flush=True)
    print(f"synack {len(synack)} ({segs} in all)")
    print(f"rst {len(rst)}")
    print(f"arp {len(arp)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
