"""Starts a Radicale CalDAV server on 127.0.0.1 for one test.

Usage: radicale_server.py STORAGE_DIR USERS_FILE PORT_FILE

STORAGE_DIR holds the collections (the test creates them as Radicale's filesystem storage
lays them out), USERS_FILE is an htpasswd file with plain-text passwords. The server listens
on a free port, which is written to PORT_FILE (with a final newline) once it accepts
connections. It stops when this script's standard input closes: the test's lifeline.
Run it with the Python that has Radicale installed (`make deps` puts one under
.build/tools/caldav).
"""
import os
import signal
import socket
import subprocess
import sys
import threading
import time

storage, users, port_file = sys.argv[1:4]

# A test process's threads block signals, and a child inherits the mask: unblock them, so that
# Radicale (started below with this mask) stops when it is told to.
signal.pthread_sigmask(signal.SIG_SETMASK, [])

def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start(port):
    return subprocess.Popen(
        [sys.executable, "-m", "radicale", "--config", "",
         "--server-hosts", "127.0.0.1:%d" % port,
         "--storage-filesystem-folder", storage,
         "--auth-type", "htpasswd", "--auth-htpasswd-filename", users,
         "--auth-htpasswd-encryption", "plain",
         "--rights-type", "owner_only",
         "--logging-level", "warning"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def accepting(server, port, deadline):
    """Whether the server accepts connections before the deadline (False once it has exited)."""
    while time.time() < deadline and server.poll() is None:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return True
        except OSError:
            time.sleep(0.05)
    return False


# The free port found is free only until something else takes it: tests running beside this
# one open connections from the same range of ports. A server that could not bind it exits at
# once, and is started again on another port.
server = None
deadline = time.time() + 60
for attempt in range(5):
    port = free_port()
    server = start(port)
    # Accepting, and still running: not another test's server on the same port.
    if accepting(server, port, deadline) and server.poll() is None:
        break
    if server.poll() is None:
        server.terminate()
        sys.exit("radicale did not start")
else:
    sys.exit("radicale did not start: no port it could bind")


def stop_on_eof():
    sys.stdin.read()
    server.terminate()
    try:
        server.wait(timeout=5)
    except subprocess.TimeoutExpired:
        server.kill()
    os._exit(0)


threading.Thread(target=stop_on_eof, daemon=True).start()

with open(port_file + ".tmp", "w") as out:
    out.write("%d\n" % port)
os.rename(port_file + ".tmp", port_file)
sys.exit(server.wait())
