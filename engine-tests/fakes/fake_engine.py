#!/usr/bin/env python3
"""A scripted fake engine for referee tests: speaks UCI or CECP and plays a fixed line.

It plays script[ply], where ply counts every move of the game so far (book included), in
its own protocol's squares. It checks that the moves it is told match the script; on a
mismatch, or when the script runs out, it plays the illegal text 'desync' (UCI) or resigns
(CECP). Modes make it misbehave on its first move: 'illegal' plays --bad-move, 'hang' never
answers, 'crash' exits, 'slow' sleeps --delay seconds before each move.
"""
import argparse
import sys
import time

ap = argparse.ArgumentParser()
ap.add_argument("--proto", choices=["uci", "xboard"], default="uci")
ap.add_argument("--script", default="")
ap.add_argument("--cycle", action="store_true", help="repeat the script forever")
ap.add_argument("--mode", choices=["script", "illegal", "hang", "crash", "slow"], default="script")
ap.add_argument("--bad-move", default="e2e5")
ap.add_argument("--score", type=int, default=None, help="report this score (cp) with depth 1")
ap.add_argument("--delay", type=float, default=0.0)
ap.add_argument("--setup", action="store_true", help="answer 'variant' with a CECP setup line")
args = ap.parse_args()

script = args.script.split()


def expected(ply):
    if args.cycle and script:
        return script[ply % len(script)]
    return script[ply] if ply < len(script) else None


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


moves = []
desync = False


def choose():
    """The move to play now, or None to resign/desync."""
    if args.mode == "hang":
        while True:
            time.sleep(1)
    if args.mode == "crash":
        sys.exit(3)
    if args.mode == "illegal":
        return args.bad_move
    if args.mode == "slow":
        time.sleep(args.delay)
    if desync:
        return None
    return expected(len(moves))


for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    cmd = words[0]
    if args.proto == "uci":
        if cmd == "uci":
            out("id name fake")
            out("option name UCI_Variant type combo default chess var chess var venomous")
            out("uciok")
        elif cmd == "isready":
            out("readyok")
        elif cmd == "position":
            moves = words[words.index("moves") + 1:] if "moves" in words else []
            desync = any(m != expected(i) for i, m in enumerate(moves))
        elif cmd == "go":
            m = choose()
            if args.score is not None:
                out("info depth 1 score cp %d nodes 1 pv %s" % (args.score, m or "0000"))
            out("bestmove %s" % (m if m is not None else "desync"))
        elif cmd == "quit":
            break
    else:
        if cmd == "protover":
            out("feature done=0")
            out('feature ping=1 setboard=1 usermove=1 time=1 myname="fake"')
            out('feature variants="normal,gustav3,venator,venomous"')
            out("feature done=1")
        elif cmd == "variant" and args.setup:
            out("setup (PNBRQKpnbrqk) 8x8+0_fairy rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
        elif cmd == "ping":
            out("pong %s" % words[1])
        elif cmd in ("new", "setboard"):
            moves = []
            desync = False
        elif cmd == "usermove":
            if words[1] != expected(len(moves)):
                desync = True
            moves.append(words[1])
        elif cmd == "go":
            m = choose()
            if m is None:
                out("resign")
            else:
                if args.score is not None:
                    out("1 %d 0 1 %s" % (args.score, m))
                moves.append(m)
                out("move %s" % m)
        elif cmd == "quit":
            break
