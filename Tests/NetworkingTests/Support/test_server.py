#!/usr/bin/env python3
"""A loopback HTTP server for NetworkingTests: started by a test, on a random port, stopped
when the test ends. Writes its port to the file named by its first argument, then serves
until killed."""
import gzip
import http.server
import os
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
        if path == "/hang":
            time.sleep(30)
            return self.send(200, b"too late")
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


serve(Handler)
