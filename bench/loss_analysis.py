#!/usr/bin/env python3
"""Where Sissa's chess games are lost: every position of a PGN from `sissa match` is scored by
Stockfish at full strength (fixed nodes, one thread), and each Sissa move's cost is the drop
in Sissa's expected score by Stockfish's WDL model. A benchmark tool (python-chess and
Stockfish), not part of the tests.

    python3 bench/loss_analysis.py GAMES.pgn OUT.jsonl [--nodes N] [--engine PATH] [--player NAME]
    python3 bench/loss_analysis.py --summary OUT.jsonl [--player NAME]

The first form writes one JSON line a game (resumable: games already in OUT are skipped); the
second prints, per game, where Sissa's expected score first fell below 0.2 and its two
costliest moves, then the totals: moves, moves costing 0.1 and 0.2 or more, how Sissa's own
score (from the PGN comments) compares with Stockfish's in expected-score terms, overall and by
the material balance on the board, and how the games ended that Sissa once stood well in.
"""
import argparse
import json
import math
import os
import re
import statistics
import sys

import chess
import chess.engine
import chess.pgn

SCORE_RE = re.compile(r"^([+-]?\d+\.\d+)/(\d+)")
PIECE_VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
# A game counts as one Sissa stood well in once Stockfish gave it this expected score.
STOOD_WELL = 0.7


def expected(score, ply):
    """Expected score (0 to 1) of a python-chess `PovScore` side, by Stockfish's WDL model."""
    return score.wdl(model="sf", ply=ply).expectation()


def material_balance(fen):
    """The side to move's material minus the other side's, in pawns (1, 3, 3, 5, 9)."""
    board = chess.Board(fen)
    us = board.turn
    return sum(v * (len(board.pieces(p, us)) - len(board.pieces(p, not us)))
               for p, v in PIECE_VALUES.items())


def turns(game, player):
    """(index, record) of each of `player`'s moves after the book in one analysed game."""
    white = game["white"] == player
    for i, r in enumerate(game["records"]):
        if r["comment"] != "book" and (r["fen"].split()[1] == "w") == white:
            yield i, r


def analyse(args):
    done = set()
    if os.path.exists(args.out):
        with open(args.out) as f:
            done = {json.loads(line)["game"] for line in f if line.strip()}
    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    engine.configure({"Threads": 1, "Hash": 64})
    limit = chess.engine.Limit(nodes=args.nodes)
    with open(args.pgn) as f, open(args.out, "a") as out:
        number = 0
        while (game := chess.pgn.read_game(f)) is not None:
            number += 1
            if number in done:
                continue
            if args.player not in (game.headers["White"], game.headers["Black"]):
                continue
            board = game.board()
            records = []
            for node in game.mainline():
                info = engine.analyse(board, limit, game=number)
                score = info["score"].white()
                best = info.get("pv", [None])[0]
                records.append({
                    "ply": board.ply(),
                    "fen": board.fen(),
                    "move": board.san(node.move),
                    "best": board.san(best) if best else None,
                    "cp": score.score(mate_score=10000),
                    "white_exp": expected(score, board.ply()),
                    "comment": node.comment,
                })
                board.push(node.move)
            final = None
            if not board.is_game_over():
                score = engine.analyse(board, limit, game=number)["score"].white()
                final = expected(score, board.ply())
            out.write(json.dumps({
                "game": number,
                "white": game.headers["White"],
                "result": game.headers["Result"],
                "records": records,
                "final_exp": final,
            }) + "\n")
            out.flush()
            print(f"game {number} done", file=sys.stderr, flush=True)
    engine.quit()


def summary(args):
    games = [json.loads(line) for line in open(args.out) if line.strip()]
    costs, disagreements, lost_plies = [], [], []
    bins = [(-10**9, -200), (-200, -50), (-50, 50), (50, 150), (150, 300), (300, 10**9)]
    calibration = {b: [] for b in bins}
    by_balance = {}
    stood_well = []
    for g in games:
        white = g["white"] == args.player
        recs = g["records"]
        exps = [r["white_exp"] for r in recs] + [g["final_exp"]]

        def own(i):
            e = exps[i]
            return None if e is None else (e if white else 1 - e)

        result = {"1-0": 1.0, "0-1": 0.0}.get(g["result"], 0.5)
        result = result if white else 1 - result
        lost_at = next((i for i in range(len(recs)) if recs[i]["comment"] != "book"
                        and own(i) is not None and own(i) < 0.2), None)
        moves = []
        best = 0
        for i, r in turns(g, args.player):
            if own(i) is not None:
                best = max(best, own(i))
            if own(i + 1) is None:
                continue
            cost = own(i) - own(i + 1)
            costs.append(cost)
            moves.append((cost, r["ply"], r["move"], r["best"], r["comment"]))
            m = SCORE_RE.match(r["comment"] or "")
            if m:
                cp = float(m.group(1)) * 100
                sissa_exp = 1 / (1 + math.exp(-cp / 400))
                if abs(r["cp"]) < 1000:
                    disagreements.append(sissa_exp - own(i))
                    balance = max(-3, min(3, material_balance(r["fen"])))
                    by_balance.setdefault(balance, []).append(sissa_exp - own(i))
                for b in bins:
                    if b[0] <= cp < b[1]:
                        calibration[b].append((sissa_exp, own(i), result))
        if best >= STOOD_WELL:
            stood_well.append(result)
        top = sorted(moves, reverse=True)[:2]
        if lost_at is not None:
            lost_plies.append(lost_at)
        print(f"game {g['game']:3d} {'W' if white else 'B'} {result} plies {len(recs)} "
              f"below 0.2 from ply {lost_at}: "
              + "; ".join(f"{c:.2f} at ply {p} {mv} (best {b}) [{cm}]" for c, p, mv, b, cm in top))
    print(f"{len(games)} games, {len(costs)} Sissa moves: cost >= 0.1: "
          f"{sum(c >= 0.1 for c in costs)}, >= 0.2: {sum(c >= 0.2 for c in costs)}; "
          f"expected score given away {sum(c for c in costs if c > 0):.1f}")
    if lost_plies:
        print(f"{len(lost_plies)} games fell below 0.2, at ply (median) "
              f"{statistics.median(lost_plies)}, quartiles {statistics.quantiles(lost_plies, n=4)}")
    print("Sissa's score (cp) | moves | its expected score | Stockfish's | game result")
    for (lo, hi), rows in calibration.items():
        if rows:
            n = len(rows)
            print(f"{lo:>6} .. {hi:<6} | {n:5d} | {sum(r[0] for r in rows) / n:.2f} | "
                  f"{sum(r[1] for r in rows) / n:.2f} | {sum(r[2] for r in rows) / n:.2f}")
    if disagreements:
        print(f"Sissa's own expected score minus Stockfish's, on Sissa's moves: mean "
              f"{statistics.mean(disagreements):+.3f}, median {statistics.median(disagreements):+.3f}")
        print("by material balance (Sissa's minus Stockfish's side, pawns, clamped to +/-3): "
              + ", ".join(f"{b:+d}: {statistics.mean(d):+.3f} ({len(d)})"
                          for b, d in sorted(by_balance.items())))
    if stood_well:
        print(f"{len(stood_well)} games where Stockfish once gave Sissa {STOOD_WELL} or more: "
              f"won {stood_well.count(1.0)}, drawn {stood_well.count(0.5)}, "
              f"lost {stood_well.count(0.0)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pgn", nargs="?")
    ap.add_argument("out")
    ap.add_argument("--summary", action="store_true")
    ap.add_argument("--nodes", type=int, default=100_000)
    ap.add_argument("--engine", default="/usr/games/stockfish")
    ap.add_argument("--player", default="sissa")
    args = ap.parse_args()
    if args.summary:
        summary(args)
    elif args.pgn is None:
        ap.error("a PGN is needed unless --summary")
    else:
        analyse(args)


if __name__ == "__main__":
    main()
