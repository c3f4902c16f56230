#!/usr/bin/env python3
"""Frame times while the 3D view of a board is turned, in headless chromium (software GL).

usage: turning_3d.py BINARY [BOARD] [SECONDS] [disk]   (see BENCHMARKS.md, "Server")
Starts the server on a fresh data directory on loopback (under ulimit -v 4194304) and
chromedriver, opens a Projective Hex game on BOARD (default goldberg:8) in chromium with the
browser tests' flags plus --enable-unsafe-swiftshader (WebGL on the CPU), then for SECONDS
(default 6) drags across the 3D view, back and forth, in 16 ms steps, while the page records
the time between animation frames. Prints the frames counted, the time they took and their
p50, p95 and max in ms, and the CPU time the browser's processes (all of them, the GPU process
that runs SwiftShader apart) used during the drag: a figure that the machine's load changes far
less than the frame times. With `disk`, the same drag goes across the disk instead (the 3D view
only repaints the cell under the pointer): the page's pace without turning, for comparison.
Script is injected here to read the clock; the browser tests never inject any."""
import glob, json, os, shutil, signal, subprocess, sys, tempfile, time, urllib.request

BIN = sys.argv[1]
BOARD = sys.argv[2] if len(sys.argv) > 2 else "goldberg:8"
SECONDS = float(sys.argv[3]) if len(sys.argv) > 3 else 6.0
TARGET = "#board svg.surface" if sys.argv[4:] == ["disk"] else "#view3d canvas"
PORT = 17990 + os.getpid() % 40
DRIVER_PORT = PORT + 50
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"


def call(url, method="GET", body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data, method=method,
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as answer:
        return json.loads(answer.read())


def browser_cpu(driver_pid):
    """CPU seconds used so far by the processes below chromedriver: (all, the GPU process)."""
    parent, kind, ticks = {}, {}, {}
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            text = open(stat).read()
            pid = int(stat.split("/")[2])
            fields = text.rsplit(")", 1)[1].split()
            parent[pid], ticks[pid] = int(fields[1]), int(fields[11]) + int(fields[12])
            kind[pid] = open(f"/proc/{pid}/cmdline", "rb").read()
        except (OSError, ValueError):
            continue
    def below(pid):
        while pid in parent and pid != driver_pid:
            pid = parent[pid]
        return pid == driver_pid
    mine = [pid for pid in ticks if pid != driver_pid and below(pid)]
    hz = os.sysconf("SC_CLK_TCK")
    return (sum(ticks[p] for p in mine) / hz,
            sum(ticks[p] for p in mine if b"--type=gpu-process" in kind[p]) / hz)


data = tempfile.mkdtemp(prefix="crosscap-bench-")
server = subprocess.Popen(
    ["bash", "-c", f"ulimit -v 4194304; exec {BIN} serve --addr 127.0.0.1:{PORT} --data-dir {data}"],
    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
server.stdout.readline()
driver = subprocess.Popen(["chromedriver", f"--port={DRIVER_PORT}"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
base = f"http://127.0.0.1:{DRIVER_PORT}"
try:
    for _ in range(100):
        try:
            call(f"{base}/status")
            break
        except OSError:
            time.sleep(0.1)
    game = call(f"http://127.0.0.1:{PORT}/api/games", "POST",
                {"game": "projective-hex", "board": BOARD,
                 "players": {"X": "human", "O": "human"}})
    session = call(f"{base}/session", "POST", {"capabilities": {"alwaysMatch": {
        "browserName": "chrome",
        "goog:chromeOptions": {"binary": shutil.which("chromium"), "args": [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--window-size=1200,1000", "--enable-unsafe-swiftshader"]}}}})["value"]["sessionId"]
    s = f"{base}/session/{session}"
    call(f"{s}/url", "POST", {"url": f"http://127.0.0.1:{PORT}/#/game/{game['id']}"})
    canvas = None
    for _ in range(100):
        found = call(f"{s}/elements", "POST",
                     {"using": "css selector", "value": TARGET})["value"]
        if found:
            canvas = found[0][ELEMENT]
            break
        time.sleep(0.1)
    assert canvas, f"no {TARGET} on the page"
    time.sleep(1)
    renderer = call(f"{s}/execute/sync", "POST", {"script": """
        const gl = document.createElement('canvas').getContext('webgl2');
        const info = gl && gl.getExtension('WEBGL_debug_renderer_info');
        return info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : String(gl && gl.getParameter(gl.RENDERER));
    """, "args": []})["value"]
    call(f"{s}/execute/sync", "POST", {"script": """
        window.frames3d = [];
        let last = null;
        const tick = (t) => {
          if (last !== null) window.frames3d.push(t - last);
          last = t;
          if (!window.stop3d) requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
    """, "args": []})
    steps = int(SECONDS * 1000 / 16)
    actions = [{"type": "pointerMove", "duration": 0, "origin": {ELEMENT: canvas}, "x": -60, "y": 0},
               {"type": "pointerDown", "button": 0}]
    for i in range(steps):
        dx = 4 if (i // 30) % 2 == 0 else -4
        actions.append({"type": "pointerMove", "duration": 16, "origin": "pointer", "x": dx, "y": 1 if i % 2 else -1})
    actions.append({"type": "pointerUp", "button": 0})
    cpu_before = browser_cpu(driver.pid)
    call(f"{s}/actions", "POST", {"actions": [{"type": "pointer", "id": "mouse",
                                               "parameters": {"pointerType": "mouse"},
                                               "actions": actions}]})
    frames = call(f"{s}/execute/sync", "POST",
                  {"script": "window.stop3d = true; return window.frames3d;", "args": []})["value"]
    cpu, gpu = (after - before for after, before in zip(browser_cpu(driver.pid), cpu_before))
    frames.sort()
    q = lambda p: frames[min(len(frames) - 1, int(p * len(frames)))]
    print(f"{BOARD}: {renderer}")
    print(f"{len(frames)} frames in {sum(frames) / 1000:.1f} s: p50 {q(0.5):.1f} ms, "
          f"p95 {q(0.95):.1f} ms, max {frames[-1]:.1f} ms")
    print(f"browser CPU {cpu:.1f} s ({1000 * cpu / len(frames):.1f} ms a frame), "
          f"of which the GPU process {gpu:.1f} s")
    call(s, "DELETE")
finally:
    driver.send_signal(signal.SIGTERM)
    server.send_signal(signal.SIGTERM)
    driver.wait()
    server.wait()
    shutil.rmtree(data, ignore_errors=True)
