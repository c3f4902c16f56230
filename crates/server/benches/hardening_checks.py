#!/usr/bin/env python3
"""The server's hardening checks against one binary (see BENCHMARKS.md, "Server").

usage: hardening_checks.py BINARY CASE
CASE: finding1 (four oversized creations), hardgame (taylor:40 ai:hard against ai:hard, 20 s,
then SIGKILL and 15 s after a restart), idle (100 taylor:40 games), hints (two perfect hints
on sandpile path:4999 time out, then a computer game, then the server's CPU time).
Every server runs under `ulimit -v 4194304` on loopback and is killed at the end."""
import http.client, json, os, shutil, signal, subprocess, sys, tempfile, threading, time

BIN, CASE = sys.argv[1], sys.argv[2]
PORT = 17900 + os.getpid() % 50


def start(data):
    proc = subprocess.Popen(
        ["bash", "-c", f"ulimit -v 4194304; exec {BIN} serve --addr 127.0.0.1:{PORT} --data-dir {data}"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    proc.stdout.readline()
    return proc


def call(method, path, body=None, timeout=60):
    c = http.client.HTTPConnection("127.0.0.1", PORT, timeout=timeout)
    c.request(method, path, json.dumps(body) if body is not None else None,
              {"content-type": "application/json"})
    r = c.getresponse()
    data = r.read()
    try:
        return r.status, json.loads(data)
    except ValueError:
        return r.status, data[:200]


def rss_mb(proc):
    try:
        for line in open(f"/proc/{proc.pid}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except FileNotFoundError:
        return None


def cpu_s(proc):
    fields = open(f"/proc/{proc.pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def alive(proc):
    return proc.poll() is None


data = tempfile.mkdtemp(prefix="crosscap-measure-")
proc = start(data)
try:
    if CASE == "finding1":
        for body in [
            {"game": "edge-nim", "board": "star:99999"},
            {"game": "edge-nim", "board": "complete:1414"},
            {"game": "edge-nim", "board": "P2", "options": {"tokens": "4294967295"}},
            {"game": "sandpile", "board": "K65536,2"},
        ]:
            t = time.time()
            try:
                status, answer = call("POST", "/api/games", body, timeout=30)
            except Exception as e:
                status, answer = "no answer", str(e)
            took = time.time() - t
            time.sleep(0.5)
            print(f"{json.dumps(body)}: {status} in {took:.2f} s; server up: {alive(proc)}; "
                  f"RSS {rss_mb(proc)} MB; {str(answer)[:110]}")
    elif CASE == "hardgame":
        status, game = call("POST", "/api/games", {
            "game": "projective-hex", "board": "taylor:40", "seed": 1,
            "players": {"X": "ai:hard", "O": "ai:hard"}})
        gid = game.get("id") if isinstance(game, dict) else None
        print("created:", status, gid)
        peak = 0
        for _ in range(20):
            time.sleep(1)
            peak = max(peak, rss_mb(proc) or 0)
        st = call("GET", f"/api/games/{gid}")[1] if alive(proc) else None
        print(f"20 s in: up {alive(proc)}; RSS {rss_mb(proc)} MB (peak sampled {peak:.0f} MB); "
              f"moves {len(st['moves']) if st else None}")
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc = start(data)
        peak = 0
        for _ in range(15):
            time.sleep(1)
            peak = max(peak, rss_mb(proc) or 0)
        st = call("GET", f"/api/games/{gid}")[1] if alive(proc) else None
        print(f"15 s after SIGKILL + restart: up {alive(proc)}; RSS {rss_mb(proc)} MB "
              f"(peak sampled {peak:.0f} MB); moves {len(st['moves']) if st else None}")
    elif CASE == "idle":
        print(f"start: RSS {rss_mb(proc):.0f} MB")
        ids = []
        t = time.time()
        while len(ids) < 100:
            status, game = call("POST", "/api/games", {"game": "projective-hex", "board": "taylor:40"})
            if status == 429:
                time.sleep(0.5)
                continue
            assert status == 201, (status, game)
            ids.append(game["id"])
        for gid in ids:
            assert call("GET", f"/api/games/{gid}")[0] == 200
        print(f"100 taylor:40 games created and each shown once in {time.time() - t:.0f} s: "
              f"up {alive(proc)}; RSS {rss_mb(proc):.0f} MB")
        status, s = call("GET", "/api/status")
        if status == 200:
            print("status:", json.dumps(s))
    elif CASE == "hints":
        status, game = call("POST", "/api/games", {"game": "sandpile", "board": "path:4999"})
        gid = game["id"]
        cpu0 = cpu_s(proc)
        results = []

        def hint():
            t = time.time()
            results.append((call("GET", f"/api/games/{gid}/hint?level=perfect", timeout=120)[0],
                            time.time() - t))
        threads = [threading.Thread(target=hint) for _ in range(2)]
        [th.start() for th in threads]
        [th.join() for th in threads]
        print("hints:", [(s, round(t, 1)) for s, t in results])
        t = time.time()
        status, comp = call("POST", "/api/games", {
            "game": "nim", "board": "3 4 5", "players": {"X": "ai:random", "O": "human"}})
        print(f"a computer game right after: {status} in {time.time() - t:.2f} s")
        samples = []
        for _ in range(12):
            samples.append(round(cpu_s(proc), 2))
            time.sleep(0.5)
        print("server CPU seconds every 0.5 s after:", samples)
        status, s = call("GET", "/api/status")
        if status == 200:
            print("status:", json.dumps(s))
finally:
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    shutil.rmtree(data, ignore_errors=True)
