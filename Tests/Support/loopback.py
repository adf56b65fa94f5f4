"""What every loopback test server shares: listen on 127.0.0.1 on a random port, write the port
(atomically) to the file named by the last argument, and stop when stdin closes (the test's
lifeline; this also works when a launcher such as pyenv's shim, which ignores SIGTERM, stands
between the test and the server)."""
import http.server
import os
import sys
import threading


def serve(handler):
    def exit_with_parent():
        sys.stdin.read()
        os._exit(0)

    threading.Thread(target=exit_with_parent, daemon=True).start()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    port_file = sys.argv[-1]
    with open(port_file + ".tmp", "w") as f:
        f.write(f"{server.server_address[1]}\n")
    os.rename(port_file + ".tmp", port_file)
    server.serve_forever()


class Handler(http.server.BaseHTTPRequestHandler):
    """A quiet HTTP/1.1 handler with one way to answer: status, body and headers."""

    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body=b"", headers=None):
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
