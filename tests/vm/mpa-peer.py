#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""An iWARP peer made of the host's TCP stack: connect to an iWARP
listener, send an MPA request (RFC 5044, with RFC 6581's enhanced
header for revision 2) and print what comes back. The RDMA side's
connection manager has to answer a TCP it did not write.

Prints one line per fact the caller checks:
  connected
  reply: rev=R reject=0|1 enhanced=0|1 markers=0|1 crc=0|1 pdata_len=N
  ird=I ord=O (revision 2 only)
  closed (the peer ended the stream) or reset (the peer reset it)
Exit status: 0 if a reply came, 2 if none (the stream ended first),
3 if the connection failed.
"""
import argparse
import socket
import struct
import sys

KEY_REQ = b"MPA ID Req Frame"
KEY_REP = b"MPA ID Rep Frame"
FLAG_MARKERS = 0x80
FLAG_CRC = 0x40
FLAG_REJECT = 0x20
FLAG_ENHANCED = 0x10


P2P = 0x8000          # IRD word: peer-to-peer mode
RTR_READ = 0x4000     # ORD word: a zero-length read as ready-to-receive


def request(rev, pdata, ird, ord_, p2p):
    flags = 0
    body = pdata
    if rev == 2:
        flags |= FLAG_ENHANCED
        ird_word = (ird & 0x3FFF) | (P2P if p2p else 0)
        ord_word = (ord_ & 0x3FFF) | (RTR_READ if p2p else 0)
        body = struct.pack(">HH", ird_word, ord_word) + pdata
    return KEY_REQ + struct.pack(">BBH", flags, rev, len(body)) + body


def recv_exact(sock, n):
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            return data
        data += chunk
    return data


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("addr")
    ap.add_argument("port", type=int)
    ap.add_argument("--rev", type=int, default=2)
    ap.add_argument("--pdata", default="mpa-peer")
    ap.add_argument("--ird", type=int, default=4)
    ap.add_argument("--ord", type=int, default=4)
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--no-p2p", action="store_true",
                    help="revision 2 without peer-to-peer mode or an RTR")
    args = ap.parse_args()

    try:
        sock = socket.create_connection((args.addr, args.port), timeout=args.timeout)
    except OSError as e:
        print(f"connect failed: {e}")
        return 3
    print("connected", flush=True)
    sock.sendall(request(args.rev, args.pdata.encode(), args.ird, args.ord,
                         not args.no_p2p))
    try:
        hdr = recv_exact(sock, 20)
    except ConnectionResetError:
        print("reset")
        return 2
    except socket.timeout:
        print("no reply")
        return 2
    if len(hdr) < 20:
        print("closed")
        return 2
    key = hdr[:16]
    flags, rev, plen = struct.unpack(">BBH", hdr[16:20])
    if key != KEY_REP:
        print(f"bad key {key!r}")
        return 2
    print(f"reply: rev={rev} reject={int(bool(flags & FLAG_REJECT))} "
          f"enhanced={int(bool(flags & FLAG_ENHANCED))} "
          f"markers={int(bool(flags & FLAG_MARKERS))} "
          f"crc={int(bool(flags & FLAG_CRC))} pdata_len={plen}", flush=True)
    pdata = recv_exact(sock, plen)
    if rev == 2 and flags & FLAG_ENHANCED and len(pdata) >= 4:
        ird, ord_ = struct.unpack(">HH", pdata[:4])
        print(f"ird={ird & 0x3FFF} ord={ord_ & 0x3FFF}")
    try:
        rest = sock.recv(4096)
        print("closed" if not rest else f"data {len(rest)} bytes")
    except ConnectionResetError:
        print("reset")
    except socket.timeout:
        print("open")
    sock.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
