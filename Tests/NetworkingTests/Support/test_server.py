#!/usr/bin/env python3
"""A loopback HTTP server for NetworkingTests: started by a test, on a random port, stopped
when the test ends. Writes its port to the file named by its first argument, then serves
until killed."""
import gzip
import http.server
import json
import os
import select
import socket
import sys
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Support"))
import loopback  # noqa: E402
from loopback import serve  # noqa: E402
import time

ETAG = '"v1"'
LAST_MODIFIED = "Sat, 13 Mar 2021 09:00:00 GMT"
seen = {}
lock = threading.Lock()
# Per test id: requests that reached /landing/<id>, and the outcome of /endless/<id> and
# /hang/<id> (set once the handler has finished, so a test can wait for it).
landings = {}
streams = {}
hangs = {}
# Per group id: the /hold/<group>/<ms> requests running and at most at once, how many arrived,
# and the connections they came on.
holds = {}
connection_count = 0


def record(table, key):
    """The entry for `key`: an event set when the handler ends, and what it recorded."""
    with lock:
        return table.setdefault(key, {"arrived": threading.Event(), "done": threading.Event(), "value": None})


def client_closed(connection, seconds):
    """Waits up to `seconds` for the client to close its end; True if it did."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        readable, _, _ = select.select([connection], [], [], 0.05)
        if readable:
            try:
                if connection.recv(1, socket.MSG_PEEK) == b"":
                    return True
            except (ConnectionResetError, OSError):
                return True
    return False

# A bare TCP listener that counts connections: a redirect to gopher://, dict://, ftp:// ...
# pointing here must never reach it.
canary = socket.socket()
canary.bind(("127.0.0.1", 0))
canary.listen(16)
canary_hits = 0


def count_canary_connections():
    global canary_hits
    while True:
        connection, _ = canary.accept()
        with lock:
            canary_hits += 1
        connection.close()


threading.Thread(target=count_canary_connections, daemon=True).start()


class Handler(loopback.Handler):
    # One handler serves one connection (HTTP/1.1 keep-alive: as many requests as the client
    # sends on it), so the connection is numbered here.

    def setup(self):
        global connection_count
        super().setup()
        with lock:
            connection_count += 1
            self.connection_number = connection_count

    def do_GET(self):
        path = self.path.split("?")[0]
        parts = path.strip("/").split("/")
        if path == "/etag":
            if self.headers.get("If-None-Match") == ETAG:
                return self.send(304, headers={"ETag": ETAG})
            return self.send(200, b"etag body", {"ETag": ETAG})
        if path == "/lastmod":
            if self.headers.get("If-Modified-Since") == LAST_MODIFIED:
                return self.send(304)
            return self.send(200, b"lastmod body", {"Last-Modified": LAST_MODIFIED})
        if parts[0] == "retry":
            with lock:
                count = seen.get(path, 0)
                seen[path] = count + 1
            if count == 0:
                return self.send(503, b"busy", {"Retry-After": "1"})
            return self.send(200, b"recovered")
        if parts[0] == "hang":
            # /hang, /hang/<id> or /hang/<id>/<s>: no answer for 30 s (or <s>), unless the client
            # gives up first (its closing is recorded for /hangstate/<id>).
            entry = record(hangs, parts[1] if len(parts) > 1 else None)
            entry["arrived"].set()
            closed = client_closed(self.connection, int(parts[2]) if len(parts) > 2 else 30)
            entry["value"] = "closed" if closed else "open"
            entry["done"].set()
            if closed:
                self.close_connection = True
                return
            return self.send(200, b"too late")
        if parts[0] == "arrived":
            # Whether /hang/<id> has been reached (waits up to 60 s for it).
            return self.send(200, b"yes" if record(hangs, parts[1])["arrived"].wait(60) else b"no")
        if parts[0] == "hangstate":
            # How /hang/<id> ended: "closed" when the client closed the connection (waits up to 60 s).
            entry = record(hangs, parts[1])
            entry["done"].wait(60)
            return self.send(200, (entry["value"] or "pending").encode())
        if parts[0] == "endless":
            # /endless/<id>: up to 512 MB with no Content-Length, at most about 100 MB/s (so a
            # transport's reaction time is a few MB, not hundreds); the bytes the socket accepted
            # are recorded for /sent/<id>.
            entry = record(streams, parts[1])
            self.send_response(200)
            self.send_header("Connection", "close")
            self.end_headers()
            chunk = b"e" * 65536
            sent = 0
            try:
                while sent < 512 * 1024 * 1024:
                    self.wfile.write(chunk)
                    sent += len(chunk)
                    time.sleep(0.0005)
            except (BrokenPipeError, ConnectionResetError):
                pass
            entry["value"] = sent
            entry["done"].set()
            self.close_connection = True
            return
        if parts[0] == "sent":
            # The bytes /endless/<id> wrote before the client stopped reading (waits up to 60 s).
            entry = record(streams, parts[1])
            entry["done"].wait(60)
            return self.send(200, str(entry["value"] if entry["value"] is not None else -1).encode())
        if path == "/connection":
            # The number of the connection the request came on (1 for the server's first).
            return self.send(200, str(self.connection_number).encode())
        if parts[0] == "hold":
            # /hold/<group>/<ms>[/<want>]: answers after <ms> milliseconds, counting the requests
            # of the group running at once and the connections they use, for /held/<group>. With
            # <want>, no request is answered before <want> have run at once, or 20 s after the
            # group's first: how many a client runs at once does not depend on how quickly a busy
            # machine lets it start them.
            with lock:
                entry = holds.setdefault(parts[1], {"running": 0, "peak": 0, "requests": 0, "connections": set(),
                                                    "first": time.time()})
                entry["running"] += 1
                entry["requests"] += 1
                entry["peak"] = max(entry["peak"], entry["running"])
                entry["connections"].add(self.connection_number)
            time.sleep(int(parts[2]) / 1000)
            want = int(parts[3]) if len(parts) > 3 else 0
            while True:
                with lock:
                    if entry["peak"] >= want or time.time() > entry["first"] + 20:
                        break
                time.sleep(0.005)
            with lock:
                entry["running"] -= 1
            return self.send(200, b"held")
        if parts[0] == "held":
            # What /hold/<group> saw, as JSON: requests, peak (most at once), connections.
            with lock:
                entry = holds.get(parts[1], {"peak": 0, "requests": 0, "connections": set()})
                seen_holds = {"requests": entry["requests"], "peak": entry["peak"],
                              "connections": len(entry["connections"])}
            return self.send(200, json.dumps(seen_holds).encode(), {"Content-Type": "application/json"})
        if parts[0] == "bytes":
            return self.send(200, b"z" * int(parts[1]))
        if parts[0] == "status":
            # /status/<code>: that status, with a body unless the status forbids one.
            code = int(parts[1])
            return self.send(code, b"" if code in (204, 304) else f"status {code}".encode())
        if parts[0] == "redirectstatus":
            # /redirectstatus/<code>/<id>: a redirect to /landing/<id>, which counts its visitors.
            return self.send(int(parts[1]), b"moved", {"Location": f"/landing/{parts[2]}"})
        if parts[0] == "landing":
            with lock:
                landings[parts[1]] = landings.get(parts[1], 0) + 1
            return self.send(200, b"landed")
        if parts[0] == "landings":
            with lock:
                return self.send(200, str(landings.get(parts[1], 0)).encode())
        if path == "/echo":
            # The request as the server saw it, as JSON (header names lower-cased), with
            # response headers to read back.
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            seen_request = {
                "method": self.command,
                "headers": {name.lower(): value for name, value in self.headers.items()},
                "body": body.decode("utf-8", "replace"),
            }
            return self.send(200, json.dumps(seen_request).encode(),
                             {"Content-Type": "application/json", "X-Echo-Answer": "Answered"})
        if path == "/cookie":
            return self.send(200, b"cookie set", {"Set-Cookie": "session=secret; Path=/"})
        if parts[0] == "counter":
            # /counter/<id>: how many times it was asked, marked as cacheable for an hour.
            with lock:
                count = seen.get(path, 0) + 1
                seen[path] = count
            return self.send(200, str(count).encode(), {"Cache-Control": "max-age=3600", "ETag": f'"{count}"'})
        if path == "/closedport":
            # A port nothing listens on: bound, then released.
            probe = socket.socket()
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
            probe.close()
            return self.send(200, str(port).encode())
        if path == "/canaryport":
            return self.send(200, str(canary.getsockname()[1]).encode())
        if path == "/gzipbomb":
            # 5 MB of zeros in about 5 KB: the cap counts the decompressed bytes.
            return self.send(200, gzip.compress(b"\0" * (5 * 1000 * 1000)), {"Content-Encoding": "gzip"})
        if path == "/big":
            return self.send(200, b"x" * (11 * 1000 * 1000))
        if path == "/bigstream":
            # No Content-Length: the size is only known while reading.
            self.send_response(200)
            self.send_header("Connection", "close")
            self.end_headers()
            chunk = b"y" * 65536
            try:
                for _ in range(200):
                    self.wfile.write(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass
            self.close_connection = True
            return
        if parts[0] == "redirect":
            remaining = int(parts[1])
            if remaining == 0:
                return self.send(200, b"landed")
            return self.send(302, headers={"Location": f"/redirect/{remaining - 1}"})
        if parts[0] == "scheme":
            # /scheme/<name>: a redirect to <name>://127.0.0.1:<canary>/_GET%20/x (or, for file,
            # to a local file); /scheme/<name>/relative redirects by a relative-looking Location.
            target = f"{parts[1]}://127.0.0.1:{canary.getsockname()[1]}/_GET%20/x"
            if parts[1].lower() == "file":
                target = "file:///etc/passwd" if len(parts) < 3 else "file:///no/such/file"
            return self.send(302, headers={"Location": target})
        if path == "/canary":
            with lock:
                return self.send(200, str(canary_hits).encode())
        if path == "/permanent":
            return self.send(301, headers={"Location": "/redirect/0"})
        if parts[0] == "loop":
            other = "b" if parts[1] == "a" else "a"
            return self.send(302, headers={"Location": f"/loop/{other}"})
        if path == "/gzip":
            return self.send(200, gzip.compress(b"unzipped body " * 100), {"Content-Encoding": "gzip"})
        if path == "/small":
            return self.send(200, b"ok", {"Content-Type": "text/plain"})
        return self.send(404, b"not found")

    do_POST = do_GET
    do_HEAD = do_GET
    do_PUT = do_GET
    do_DELETE = do_GET


serve(Handler)
