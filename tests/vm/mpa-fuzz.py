#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Malformed MPA requests (RFC 5044, RFC 6581) from the host's TCP stack
to an iWARP listener, one TCP connection each, and what the listener's
connection manager answers.

  mpa-fuzz.py ADDR PORT [CASE...]     (no CASE: every one)
  mpa-fuzz.py --silent N ADDR PORT    (N connections that send nothing)

Prints "case NAME: OUTCOME" for each, OUTCOME one of: reset (the stream
was reset), closed (it was ended), open (nothing came within the wait),
or a reply, "reply rev=R reject=0|1", and what followed it. The peer
sends no RTR after a reply (the simulator takes no stream data from
outside); it holds the connection until the listener's side ends it
("then reset", "then closed", "then open"), except in case fin-after-reply,
where it closes at once ("then closed by us"). With --silent it prints "silent: connected N",
waits until each connection ends or --timeout passes, then prints
"silent: reset R closed C open O".
"""
import argparse
import socket
import struct
import sys
import time

KEY_REQ = b"MPA ID Req Frame"
KEY_REP = b"MPA ID Rep Frame"
FLAG_MARKERS = 0x80
FLAG_CRC = 0x40
FLAG_ENHANCED = 0x10
P2P = 0x8000
RTR_READ = 0x4000


def frame(key=KEY_REQ, flags=FLAG_CRC | FLAG_ENHANCED, rev=2, pdata=b"fuzz",
          ctrl=True, claim=None):
    body = pdata
    if ctrl:
        body = struct.pack(">HH", 4 | P2P, 4 | RTR_READ) + pdata
    plen = len(body) if claim is None else claim
    return key + struct.pack(">BBH", flags, rev, plen) + body


# name: (bytes sent at once, bytes sent 0.5 s later)
CASES = {
    "good": (frame(), b""),
    "rev1": (frame(flags=FLAG_CRC, rev=1, ctrl=False), b""),
    "bad-key": (frame(key=KEY_REP), b""),
    "garbage": (bytes(range(0x41, 0x41 + 24)), b""),
    "rev0": (frame(rev=0), b""),
    "rev3": (frame(rev=3), b""),
    "pdata-too-long": (frame(pdata=b"p" * 600), b""),
    "short-header": (frame()[:12], b""),
    "truncated": (frame(claim=100), b""),
    "no-p2p": (KEY_REQ + struct.pack(">BBHHH", FLAG_CRC | FLAG_ENHANCED, 2, 4,
                                     4, 4), b""),
    "split": (frame()[:10], frame()[10:]),
    "fin-after-reply": (frame(), b""),
}


def outcome(sock, wait):
    sock.settimeout(wait)
    try:
        hdr = b""
        while len(hdr) < 20:
            chunk = sock.recv(20 - len(hdr))
            if not chunk:
                return "closed"
            hdr += chunk
    except ConnectionResetError:
        return "reset"
    except socket.timeout:
        return "open"
    flags, rev, _ = struct.unpack(">BBH", hdr[16:20])
    if hdr[:16] != KEY_REP:
        return "bad reply key"
    return f"reply rev={rev} reject={int(bool(flags & 0x20))}"


def until_end(sock, wait):
    """What ends a connection after the reply: anything it carries is read."""
    sock.settimeout(wait)
    try:
        while sock.recv(4096):
            pass
        return "closed"
    except ConnectionResetError:
        return "reset"
    except socket.timeout:
        return "open"


def run_case(args, name):
    first, later = CASES[name]
    try:
        sock = socket.create_connection((args.addr, args.port), timeout=10)
    except OSError as e:
        return f"connect failed: {e}"
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.sendall(first)
        if later:
            time.sleep(0.5)
            sock.sendall(later)
    except ConnectionResetError:
        sock.close()
        return "reset"
    except OSError as e:
        sock.close()
        return f"send failed: {e}"
    res = outcome(sock, args.wait)
    if res.startswith("reply"):
        if name == "fin-after-reply":
            res += " then closed by us"
        else:
            res += " then " + until_end(sock, args.hold)
    sock.close()
    return res


def silent(args):
    socks = []
    for _ in range(args.silent):
        socks.append(socket.create_connection((args.addr, args.port), timeout=10))
    print(f"silent: connected {len(socks)}", flush=True)
    counts = {"reset": 0, "closed": 0, "open": 0}
    end = time.monotonic() + args.timeout
    for s in socks:
        counts[outcome(s, max(0.1, end - time.monotonic()))] += 1
        s.close()
    print(f"silent: reset {counts['reset']} closed {counts['closed']} "
          f"open {counts['open']}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("addr")
    ap.add_argument("port", type=int)
    ap.add_argument("cases", nargs="*")
    ap.add_argument("--wait", type=float, default=10,
                    help="seconds to wait for an answer to a case")
    ap.add_argument("--hold", type=float, default=40,
                    help="seconds to hold a connection after its reply")
    ap.add_argument("--silent", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=60)
    args = ap.parse_args()
    if args.silent:
        silent(args)
        return 0
    for name in args.cases or CASES:
        print(f"case {name}: {run_case(args, name)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
