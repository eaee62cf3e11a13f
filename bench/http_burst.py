#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A burst of hostile HTTP clients against a running server, and the server's memory.

    bench/http_burst.py PID PORT [--connections 100] [--body-mb 9.5] [--path /ping]
                        [--content-type text/plain]

Opens CONNECTIONS connections at once, each sending a POST whose body is BODY-MB megabytes,
reads every answer, then samples the server's resident memory (VmRSS of PID) before, at the
peak during the burst, and 3 s after. Then sends a chunked request whose trailer is 65,534
bytes (which aborted the process before #33) and checks the server still answers.
Prints one line per figure; exit 1 when the server died.
"""
import argparse
import os
import socket
import threading
import time


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def exchange(port, data, timeout=60):
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    try:
        try:
            s.sendall(data)
        except OSError:
            pass  # answered and closed early: read what came
        reply = b""
        while True:
            try:
                chunk = s.recv(65536)
            except OSError:
                break
            if not chunk:
                break
            reply += chunk
            if b"\r\n\r\n" in reply and b"Connection: close" not in reply:
                break  # one kept-alive answer is enough
        return reply.split(b" ", 2)[1].decode() if reply.startswith(b"HTTP/1.") else "none"
    finally:
        s.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pid", type=int)
    ap.add_argument("port", type=int)
    ap.add_argument("--connections", type=int, default=100)
    ap.add_argument("--body-mb", type=float, default=9.5)
    ap.add_argument("--path", default="/ping")
    ap.add_argument("--content-type", default="text/plain")
    a = ap.parse_args()

    body = b"x" * int(a.body_mb * 1024 * 1024)
    request = (f"POST {a.path} HTTP/1.1\r\nHost: x\r\nContent-Length: {len(body)}\r\n"
               f"Content-Type: {a.content_type}\r\nConnection: close\r\n\r\n").encode() + body
    before = rss_mb(a.pid)
    peak = [before]
    done = threading.Event()

    def sample():
        while not done.is_set():
            try:
                peak[0] = max(peak[0], rss_mb(a.pid))
            except OSError:
                return
            time.sleep(0.02)

    sampler = threading.Thread(target=sample)
    sampler.start()
    statuses = {}
    lock = threading.Lock()

    def client():
        try:
            st = exchange(a.port, request)
        except OSError as e:
            st = type(e).__name__
        with lock:
            statuses[st] = statuses.get(st, 0) + 1

    started = time.time()
    threads = [threading.Thread(target=client) for _ in range(a.connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.time() - started
    time.sleep(3)
    done.set()
    sampler.join()
    alive = os.path.exists(f"/proc/{a.pid}")
    after = rss_mb(a.pid) if alive else 0.0
    print(f"burst: {a.connections} x {a.body_mb} MB in {elapsed:.1f} s; answers {statuses}")
    print(f"rss MB: before {before:.0f}, peak {peak[0]:.0f}, 3 s after {after:.0f}")

    trailer = (f"POST {a.path} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
               "5\r\nhello\r\n0\r\nX-Trailer: " + "t" * 65534 + "\r\n\r\n").encode()
    try:
        st = exchange(a.port, trailer, timeout=10)
    except OSError as e:
        st = type(e).__name__
    time.sleep(0.5)
    alive = os.path.exists(f"/proc/{a.pid}") and open(f"/proc/{a.pid}/stat").read().split()[2] != "Z"
    print(f"65,534-byte trailer: answer {st}; server {'alive' if alive else 'DEAD'}")
    return 0 if alive else 1


if __name__ == "__main__":
    raise SystemExit(main())
