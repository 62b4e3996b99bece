"""Plays one full game of orthodox chess with python-chess driving Sissa over UCI.

Usage: python3 python_chess_game.py SISSA [STOCKFISH]

Sissa plays White against Stockfish at skill level 0 (or against itself when no Stockfish
path is given). python-chess checks every move against its own rules; the script also
exercises analysis, pondering and options, and exits non-zero on any protocol fault.
"""

import sys

import chess
import chess.engine

MAX_PLIES = 600


def main() -> int:
    sissa_path = sys.argv[1]
    opponent_path = sys.argv[2] if len(sys.argv) > 2 else sissa_path
    board = chess.Board()
    with chess.engine.SimpleEngine.popen_uci(sissa_path) as sissa, \
            chess.engine.SimpleEngine.popen_uci(opponent_path) as opponent:
        assert sissa.id.get("name", "").startswith("Sissa"), sissa.id
        assert "UCI_Variant" in sissa.options, list(sissa.options)
        sissa.configure({"Hash": 8, "Move Overhead": 10})
        if "Skill Level" in opponent.options:
            opponent.configure({"Skill Level": 0})

        info = sissa.analyse(board, chess.engine.Limit(depth=3))
        assert "score" in info and info.get("pv"), info
        check_pv(board, info["pv"])

        while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
            if board.turn == chess.WHITE:
                result = sissa.play(board, chess.engine.Limit(depth=2), ponder=True,
                                    info=chess.engine.INFO_ALL)
                if result.info.get("pv"):
                    check_pv(board, result.info["pv"])
            else:
                limit = chess.engine.Limit(depth=1) if opponent_path != sissa_path \
                    else chess.engine.Limit(depth=2)
                result = opponent.play(board, limit)
            if result.move is None or result.move not in board.legal_moves:
                print(f"illegal or missing move {result.move} in {board.fen()}")
                return 1
            board.push(result.move)

        outcome = board.outcome(claim_draw=True)
        if outcome is None:
            print(f"no result after {board.ply()} plies: {board.fen()}")
            return 1
        print(f"game over after {board.ply()} plies: {outcome.result()} "
              f"({outcome.termination.name}), final {board.fen()}")
        print(chess.Board().variation_san(board.move_stack))
    return 0


def check_pv(board: chess.Board, pv) -> None:
    """Every PV move must be legal in turn."""
    b = board.copy()
    for move in pv:
        assert move in b.legal_moves, f"illegal PV move {move} in {b.fen()}"
        b.push(move)


if __name__ == "__main__":
    sys.exit(main())
