#!/usr/bin/env python3
"""A loopback HTTP proxy for the proxy tests that records every request it is sent (request
line and headers, one block each, in the file named by the first argument) and answers a GET
of http://feeds.example/feed.xml with a small RSS feed, anything else with 502. The port and
the lifeline are loopback.py's."""
import sys
import threading

from loopback import Handler, serve

log_path = sys.argv[1]
lock = threading.Lock()
FEED = (b'<?xml version="1.0"?><rss version="2.0"><channel><title>Through the proxy</title>'
        b'<link>http://feeds.example/</link><item><title>Proxied item</title><guid>p1</guid>'
        b'</item></channel></rss>')


class Proxy(Handler):
    def record(self):
        with lock, open(log_path, "a") as log:
            log.write(f"{self.command} {self.path}\n{self.headers}\n")

    def answer(self):
        self.record()
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        if self.command == "GET" and self.path == "http://feeds.example/feed.xml":
            self.send(200, FEED, {"Content-Type": "application/rss+xml"})
        else:
            self.send(502, b"refused by the test proxy")

    do_GET = do_HEAD = do_POST = do_PUT = do_DELETE = do_PROPFIND = do_REPORT = do_OPTIONS = do_CONNECT = answer


serve(Proxy)
