#!/bin/bash
# Usage: bash crates/server/benches/unread_answers.sh BINARY PORT
# Starts BINARY serve on PORT (fresh data directory, ulimit -v 4000000), opens a game on
# goldberg:20 (a 2.8 MB answer with its drawing) and asks for it on 63 connections that
# never read (the 64th would pass the per-address limit); prints the resident memory
# before and with the unread answers, checks that an answer read whole is intact, then
# waits out the server's send wait (30 s) and prints the memory and the connections left.
bin=$1; port=$2; dir=/tmp/unread-$port; rm -rf $dir
(ulimit -v 4000000; exec timeout 300 $bin serve --addr 127.0.0.1:$port --data-dir $dir > /tmp/unread-$port.log 2>&1) &
sleep 2
pid=$(pgrep -f "^$bin serve --addr 127.0.0.1:$port")
id=$(curl -s -H 'content-type: application/json' -d '{"game":"euler-getter","board":"goldberg:20","players":{"X":"human","O":"human"}}' http://127.0.0.1:$port/api/games | python3 -c "import json,sys; print(json.load(sys.stdin)['id'])")
size=$(curl -s -o /dev/null -w "%{size_download}" http://127.0.0.1:$port/api/games/$id)
timeout 60 python3 - $pid $port $id $size <<'PY'
import socket,time,sys
pid,port,gid,size=sys.argv[1],int(sys.argv[2]),sys.argv[3],sys.argv[4]
rss=lambda: int(open(f"/proc/{pid}/status").read().split("VmRSS:")[1].split()[0])
time.sleep(1); before=rss()
socks=[]
for i in range(63):
    s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1",port))
    s.sendall(f"GET /api/games/{gid} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode()); socks.append(s)
time.sleep(8); during=rss()
# one whole answer read by a client that reads, to check it is intact
import urllib.request, json
body=urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games/{gid}").read()
ok=len(json.loads(body)["layout"]["cells"])
print(f"answer {size} bytes; RSS before {before} KiB, with 63 unread answers {during} KiB (+{during-before} KiB); a read answer has {ok} cells")
time.sleep(30); after=rss()
def open_still(s):
    s.setblocking(False)
    try:
        while s.recv(1 << 20): pass
        return False
    except BlockingIOError: return True
    except OSError: return False
left=sum(open_still(s) for s in socks)
print(f"38 s after asking: RSS {after} KiB (+{after-before} KiB), {left} of 63 connections still open")
for s in socks: s.close()
PY
kill $pid; wait 2>/dev/null; rm -rf $dir
