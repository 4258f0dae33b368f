"""``game serve`` under load: a game of 1,000 entries on a phone.

What it measures, on a game file grown to 1,000 entries (a Flames of War assault written by
``referee run``, then copied entry after entry through the game file's own API, so that the
log holds together as ``check_history`` checks it):

* **page**: the server's time for the game page (``GET /t/TOKEN``), median of several
  requests right after a commit (the file read again and the page drawn: the worst case)
  and of requests with nothing changed (drawn once, served again). Goal: <= 300 ms;
* **latency**: from the write of a new entry (its start: an upper bound of the time from
  its commit) to its arrival on a phone's event stream (the server polls ``data_version``
  every 0.2 s). Goal: <= 1 s;
* **idle CPU**: the server's CPU time over a quiet stretch with one phone connected, as a
  share of the wall time (``/proc/PID/stat``). Goal: <= 1%.

Each figure is also given as a ratio to a baseline measured in the same run: a bare
Starlette page served by the same uvicorn (the floor of any such server on this machine),
so that a slow machine does not read as a slow referee.

    python benchmarks/serve.py [--entries 1000] [--rounds 7]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "transcripts" / "scripts" / "fow-example-1.toml"


def grow(game: Path, count: int) -> None:
    """Add ``count`` entries to the game file ``game`` (a Flames of War assault: no state,
    so each copy follows the one before it), in one transaction."""
    from referee.game import open_game

    env = {**os.environ, "NO_COLOR": "1"}
    subprocess.run([sys.executable, "-m", "referee", "run", str(TEMPLATE), "--game",
                    str(game.resolve())],
                   check=True, capture_output=True, env=env, cwd=str(ROOT))
    with open_game(game) as tx:
        last = tx.log()[-1]
        for _ in range(count - 1):
            tx.append_log(last.ruleset, last.command, last.result, last.seed, rolls=last.rolls,
                          replay=last.replay, about=last.about)


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def _timed_get(url: str) -> float:
    started = time.perf_counter()
    with urllib.request.urlopen(url, timeout=30) as response:
        response.read()
    return time.perf_counter() - started


def _baseline_server() -> tuple[subprocess.Popen[bytes], str]:
    """A bare Starlette page on uvicorn, in a process of its own."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code = ("import uvicorn\nfrom starlette.applications import Starlette\n"
            "from starlette.responses import HTMLResponse\nfrom starlette.routing import Route\n"
            "async def page(request):\n    return HTMLResponse('<p>hello</p>')\n"
            f"uvicorn.run(Starlette(routes=[Route('/', page)]), port={port}, "
            "log_level='warning')\n")
    proc = subprocess.Popen([sys.executable, "-c", code])
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            _timed_get(url)
            return proc, url
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the baseline server did not start")


def _serve(game: Path) -> tuple[subprocess.Popen[str], dict[str, str]]:
    proc = subprocess.Popen([sys.executable, "-m", "referee", "game", "serve", str(game),
                             "--port", "0"], stdout=subprocess.PIPE, text=True, cwd=str(ROOT),
                            env={**os.environ, "NO_COLOR": "1", "PYTHONUNBUFFERED": "1"})
    assert proc.stdout is not None
    urls: dict[str, str] = {}
    for line in proc.stdout:
        if line.startswith("Watch"):
            urls["watch"] = line.split(": ", 1)[1].strip()
        elif "'s seat" in line:
            urls[line.split("'s seat")[0]] = line.rsplit(": ", 1)[1].strip()
        if line.startswith("Ctrl-C stops"):
            threading.Thread(target=lambda: proc.stdout.read(), daemon=True).start()  # type: ignore[union-attr]
            return proc, urls
    raise SystemExit("the server did not start")


def _touch(game: Path) -> None:
    """A commit that changes nothing of the game (the server reads the file again)."""
    import sqlite3

    conn = sqlite3.connect(game, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("CREATE TABLE IF NOT EXISTS bench_touch (x)")
    conn.execute("DELETE FROM bench_touch")
    conn.execute("COMMIT")
    conn.close()


def _latency(game: Path, seat: str, rounds: int) -> list[float]:
    """From a new entry's commit to the update that carries it on a phone's stream."""
    got: list[tuple[float, str]] = []
    stop = threading.Event()

    def listen() -> None:
        with urllib.request.urlopen(seat + "/events", timeout=120) as stream:
            for raw in stream:
                line = raw.decode("utf-8")
                if line.startswith("data:"):
                    got.append((time.perf_counter(), line))
                if stop.is_set():
                    return

    threading.Thread(target=listen, daemon=True).start()
    while not got:
        time.sleep(0.05)
    out = []
    for _ in range(rounds):
        time.sleep(0.3)
        before = len(got)
        committed = grow_one(game)
        while len(got) == before:
            time.sleep(0.005)
        out.append(got[-1][0] - committed)
    stop.set()
    return out


def grow_one(game: Path) -> float:
    """One entry more; the moment its write began (the entry copied is read before): the
    latency counts the write itself too, an upper bound of the time from its commit (the
    game file's own checks after the commit would make a time taken after it too late)."""
    from referee.game import open_game, read_game

    with read_game(game) as tx:
        last = tx.log()[-1]
    started = time.perf_counter()
    with open_game(game) as tx:
        tx.append_log(last.ruleset, last.command, last.result, last.seed, rolls=last.rolls,
                      replay=last.replay, about=last.about)
    return started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle measured")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        game = Path(folder) / "night.sqlite"
        subprocess.run([sys.executable, "-m", "referee", "game", "new", str(game), "--side",
                        "Grey", "--side", "Red"], check=True, capture_output=True, cwd=str(ROOT))
        grow(game, args.entries)
        base_proc, base_url = _baseline_server()
        proc, urls = _serve(game)
        try:
            baseline = statistics.median(_timed_get(base_url) for _ in range(args.rounds * 3))
            _timed_get(urls["watch"])  # warm: the templates compiled
            cold = []
            for _ in range(args.rounds):
                _touch(game)
                time.sleep(0.5)  # the watcher sees the commit
                cold.append(_timed_get(urls["watch"]))
            warm = [_timed_get(urls["watch"]) for _ in range(args.rounds)]
            latency = _latency(game, urls["Red"], args.rounds)
            seat = urls["Red"]
            idle_stop = threading.Event()

            def hold() -> None:
                with urllib.request.urlopen(seat + "/events", timeout=120) as stream:
                    for _ in stream:
                        if idle_stop.is_set():
                            return

            threading.Thread(target=hold, daemon=True).start()
            time.sleep(3.0)  # the last commit's pages drawn and sent: the server idle
            cpu0, wall0 = _cpu_seconds(proc.pid), time.monotonic()
            time.sleep(args.idle)
            cpu = (_cpu_seconds(proc.pid) - cpu0) / (time.monotonic() - wall0)
            idle_stop.set()
        finally:
            proc.terminate()
            proc.wait(timeout=10)
            base_proc.terminate()
            base_proc.wait(timeout=10)
    page_cold, page_warm, lat = (statistics.median(cold), statistics.median(warm),
                                 statistics.median(latency))
    print(f"game of {args.entries} entries; baseline (bare Starlette page): "
          f"{baseline * 1000:.1f} ms")
    print(f"game page after a commit: {page_cold * 1000:.0f} ms median "
          f"(max {max(cold) * 1000:.0f}; {page_cold / baseline:.0f}x the baseline) "
          f"goal <= 300 ms: {'ok' if page_cold <= 0.3 else 'MISSED'}")
    print(f"game page, nothing changed: {page_warm * 1000:.0f} ms median "
          f"({page_warm / baseline:.1f}x the baseline)")
    print(f"write to phone: {lat * 1000:.0f} ms median (max {max(latency) * 1000:.0f}) "
          f"goal <= 1000 ms: {'ok' if max(latency) <= 1.0 else 'MISSED'}")
    print(f"idle CPU with a phone connected: {cpu * 100:.2f}% "
          f"goal <= 1%: {'ok' if cpu <= 0.01 else 'MISSED'}")


if __name__ == "__main__":
    main()
