#!/usr/bin/env python3
"""Move quality by Stockfish's judgement: engines (UCI, each given a fixed node budget) choose a
move in the same chess positions, and Stockfish at full strength (fixed nodes, one thread)
scores the position before and after each choice; an engine's cost is the mean fall of the
mover's expected score (Stockfish's WDL model). A benchmark tool (python-chess and
Stockfish), not part of the tests.

    python3 bench/move_quality.py POSITIONS.jsonl NAME[:NODES]=CMD ... [--count N]
        [--nodes N] [--judge-nodes N] [--judge PATH] [--seed S]

POSITIONS.jsonl is what bench/loss_analysis.py writes: the positions where its player was to
move after the book are the pool, and --count of them are drawn (seeded). An engine searches
--nodes a move, or the NODES its name gives (`net4:400000=sissa`), to calibrate the measure.
Positions and judgements are the same for every engine, so the costs compare directly; the
standard error of each mean is printed beside it, and of each engine's difference to the
first, paired by position.
"""
import argparse
import json
import math
import random
import statistics

import chess
import chess.engine

from loss_analysis import expected, turns


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("positions")
    ap.add_argument("engines", nargs="+", help="NAME[:NODES]=COMMAND")
    ap.add_argument("--count", type=int, default=400)
    ap.add_argument("--nodes", type=int, default=100_000)
    ap.add_argument("--judge-nodes", type=int, default=100_000)
    ap.add_argument("--judge", default="/usr/games/stockfish")
    ap.add_argument("--player", default="sissa")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    pool = []
    for line in open(args.positions):
        pool.extend(r["fen"] for _, r in turns(json.loads(line), args.player))
    random.Random(args.seed).shuffle(pool)
    fens = pool[: args.count]

    judge = chess.engine.SimpleEngine.popen_uci(args.judge)
    judge.configure({"Threads": 1, "Hash": 64})
    limit = chess.engine.Limit(nodes=args.judge_nodes)
    cache = {}

    def expectation(board):
        """Expected score of the side to move in `board`."""
        key = board.fen()
        if key not in cache:
            if board.is_checkmate():
                cache[key] = 0.0
            elif board.is_game_over():
                cache[key] = 0.5
            else:
                score = judge.analyse(board, limit, game=object())["score"].relative
                cache[key] = expected(score, board.ply())
        return cache[key]

    costs = {}
    for spec in args.engines:
        name, cmd = spec.split("=", 1)
        nodes = int(name.split(":", 1)[1]) if ":" in name else args.nodes
        engine = chess.engine.SimpleEngine.popen_uci(cmd.split())
        row = []
        for fen in fens:
            board = chess.Board(fen)
            move = engine.play(board, chess.engine.Limit(nodes=nodes), game=object()).move
            before = expectation(board)
            board.push(move)
            row.append(before - (1 - expectation(board)))
        engine.quit()
        costs[name] = row
        print(f"{name}: mean cost {statistics.mean(row):.4f} +/- {statistics.stdev(row) / math.sqrt(len(row)):.4f} "
              f"over {len(row)} positions", flush=True)
    judge.quit()
    names = list(costs)
    for name in names[1:]:
        d = [a - b for a, b in zip(costs[name], costs[names[0]])]
        print(f"{name} - {names[0]}: {statistics.mean(d):+.4f} +/- {statistics.stdev(d) / math.sqrt(len(d)):.4f} (paired)")


if __name__ == "__main__":
    main()
