#!/usr/bin/env python3
"""A loopback file server with byte ranges, for the download tests (NetworkingTests, REPLTests):
serves the files of the directory named by the first argument (http.server does no ranges).
The port and the lifeline are loopback.py's.

GET /files/NAME answers `Range: bytes=N-` (and N-M) with 206 and Content-Range, a range past the
end with 416 and `Content-Range: bytes */LENGTH`, and honours If-Range against its ETag. NAME is
the last path segment, percent-decoded, and only ever names a file directly in the directory.
Other first segments change the behaviour:

  /norange/NAME     ignores Range: always 200 with the whole file
  /slow/NAME        as /files/, sending 16 KiB every 50 ms
  /stall/NAME       the first request for the path sends half of what it asked for, writes the
                    file .stalled (its path) and holds the connection until the client goes (or
                    60 s); later requests are answered as /files/ answers them
  /chunked/NAME     the whole file with no Content-Length (the connection closes after it)
  /badtotal/NAME    a 206 whose Content-Range announces 100 bytes more than the file has
  /badrange/NAME    a 206 that starts at byte 0 whatever was asked for
  /any/...          the file payload.bin, whatever the rest of the path says
  /redirect/REST    302 to /REST
  /toftp/NAME       302 to an ftp: address
  /status/CODE/...  that status

Every request is appended to the file .requests as one JSON line: method, path, range, if_range.
"""
import json
import os
import sys
import threading
import time
import urllib.parse

import loopback
from loopback import serve

directory = sys.argv[1]
lock = threading.Lock()
stalled = set()


def log(handler):
    entry = {
        "method": handler.command,
        "path": handler.path,
        "range": handler.headers.get("Range"),
        "if_range": handler.headers.get("If-Range"),
    }
    with lock:
        with open(os.path.join(directory, ".requests"), "a") as requests:
            requests.write(json.dumps(entry) + "\n")


def requested_range(header, length):
    """(first, last) of a `bytes=N-` or `bytes=N-M` header, "unsatisfiable", or None for none."""
    if not header or not header.startswith("bytes=") or "," in header:
        return None
    first, _, last = header[6:].partition("-")
    if not first.isdigit():
        return None
    first = int(first)
    if first >= length:
        return "unsatisfiable"
    last = min(int(last), length - 1) if last.isdigit() else length - 1
    return (first, last) if first <= last else None


class Handler(loopback.Handler):
    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        log(self)
        parts = self.path.split("?")[0].strip("/").split("/")
        mode = parts[0]
        if mode == "redirect":
            return self.send(302, b"moved", {"Location": "/" + "/".join(parts[1:])})
        if mode == "toftp":
            return self.send(302, b"moved", {"Location": "ftp://127.0.0.1/" + parts[-1]})
        if mode == "status":
            return self.send(int(parts[1]), b"status " + parts[1].encode())
        name = "payload.bin" if mode == "any" else os.path.basename(urllib.parse.unquote(parts[-1]))
        path = os.path.join(directory, name)
        if not name or name.startswith(".") or not os.path.isfile(path):
            return self.send(404, b"not found")
        with open(path, "rb") as f:
            data = f.read()
        status = os.stat(path)
        etag = f'"{status.st_size}-{status.st_mtime_ns}"'
        headers = {"ETag": etag, "Accept-Ranges": "bytes", "Content-Type": "audio/mpeg"}
        if mode == "chunked":
            return self.send_unsized(data, headers)
        wanted = requested_range(self.headers.get("Range"), len(data))
        if_range = self.headers.get("If-Range")
        if mode == "norange" or (if_range is not None and if_range != etag):
            wanted = None
        if wanted == "unsatisfiable":
            return self.send(416, b"", {"Content-Range": f"bytes */{len(data)}"})
        if wanted is None:
            first, last, status_code = 0, len(data) - 1, 200
        else:
            first, last, status_code = wanted[0], wanted[1], 206
        if mode == "badrange" and status_code == 206:
            first, last = 0, len(data) - 1 - wanted[0]
        if status_code == 206:
            total = len(data) + 100 if mode == "badtotal" else len(data)
            headers["Content-Range"] = f"bytes {first}-{last}/{total}"
        body = data[first:last + 1]
        if mode == "stall":
            with lock:
                first_time = self.path not in stalled
                stalled.add(self.path)
            if first_time:
                return self.stall(status_code, body, headers)
        if mode == "slow":
            return self.send_slowly(status_code, body, headers)
        return self.send(status_code, body, headers)

    def send_unsized(self, body, headers):
        self.send_response(200)
        for key, value in headers.items():
            self.send_header(key, value)
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        self.close_connection = True

    def head(self, status, body, headers):
        """Sends the status and headers with the body's length; whether a body is to follow."""
        self.send_response(status)
        for key, value in headers.items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return self.command != "HEAD"

    def send_slowly(self, status, body, headers):
        if not self.head(status, body, headers):
            return
        try:
            for start in range(0, len(body), 16384):
                self.wfile.write(body[start:start + 16384])
                self.wfile.flush()
                time.sleep(0.05)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def stall(self, status, body, headers):
        if not self.head(status, body, headers):
            return
        self.wfile.write(body[:len(body) // 2])
        self.wfile.flush()
        with open(os.path.join(directory, ".stalled"), "w") as marker:
            marker.write(self.path)
        # Held until the client goes away (a read sees the end) or 60 s pass.
        self.connection.settimeout(60)
        try:
            self.connection.recv(1)
        except OSError:
            pass
        self.close_connection = True


if __name__ == "__main__":
    serve(Handler)
