#!/usr/bin/env python3
"""p50 and p99 of GET /api/games while 4 clients replay a taylor:40 game (?ply=N).

usage: listing_under_replays.py BINARY [SECONDS]   (see BENCHMARKS.md, "Server")
Starts the server on a fresh data directory on loopback (under ulimit -v 4194304), makes
29 Nim games and one taylor:40 Projective Hex game of 200 moves between two people, then
for SECONDS (default 20) runs 4 replay clients (GET /api/games/{id}?ply=N, N cycling over
1..200) and one client timing GET /api/games back to back; every loop stops by itself."""
import http.client, json, os, shutil, signal, subprocess, sys, tempfile, threading, time

BIN = sys.argv[1]
SECONDS = float(sys.argv[2]) if len(sys.argv) > 2 else 20.0
PORT = 17950 + os.getpid() % 40
MOVES = 200


def call(conn, method, path, body=None):
    conn.request(method, path, json.dumps(body) if body is not None else None,
                 {"content-type": "application/json"})
    r = conn.getresponse()
    return r.status, json.loads(r.read())


data = tempfile.mkdtemp(prefix="crosscap-bench-")
proc = subprocess.Popen(
    ["bash", "-c", f"ulimit -v 4194304; exec {BIN} serve --addr 127.0.0.1:{PORT} --data-dir {data}"],
    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
proc.stdout.readline()
try:
    c = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
    for i in range(29):
        assert call(c, "POST", "/api/games", {"game": "nim", "board": f"{i % 9 + 1} 4 5"})[0] == 201
    status, game = call(c, "POST", "/api/games", {"game": "projective-hex", "board": "taylor:40"})
    assert status == 201, game
    gid, tokens = game["id"], game["tokens"]
    state = game
    for _ in range(MOVES):
        mover = state["to_move"]
        status, state = call(c, "POST", f"/api/games/{gid}/moves",
                             {"move": state["legal_moves"][0], "token": tokens[mover]})
        assert status == 200, state
    stop = time.time() + SECONDS
    replays = [0]

    def replay(k):
        conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
        n = k
        while time.time() < stop:
            n = n % MOVES + 1
            conn.request("GET", f"/api/games/{gid}?ply={n}")
            r = conn.getresponse()
            r.read()
            replays[0] += 1

    threads = [threading.Thread(target=replay, args=(k * 50,)) for k in range(4)]
    [t.start() for t in threads]
    time.sleep(0.5)
    lat = []
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
    while time.time() < stop:
        t = time.perf_counter()
        conn.request("GET", "/api/games")
        r = conn.getresponse()
        body = r.read()
        lat.append((time.perf_counter() - t) * 1000)
        assert r.status == 200
    [t.join() for t in threads]
    lat.sort()
    q = lambda p: lat[min(len(lat) - 1, int(p * len(lat)))]
    print(f"{BIN}: GET /api/games n={len(lat)} p50={q(0.50):.1f} ms p99={q(0.99):.1f} ms "
          f"max={lat[-1]:.1f} ms; replays served: {replays[0]} in {SECONDS:.0f} s")
finally:
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    shutil.rmtree(data, ignore_errors=True)
