#!/bin/bash
# One chess network iteration, the recipe of nets 10 and 11 (docs/nnue.md): self-play with
# the built-in network, rescoring by Stockfish, two epochs of training from the built-in
# network, then an SPRT of the candidate (`EvalFile`) against it with the same binary.
#
#   bench/chess_net_iteration.sh SEED WORKDIR     (a new WORKDIR for each iteration)
#
# Build first (`cargo build --release`). The binary is copied into WORKDIR so that later
# builds do not change it under the match. Each stage's output goes to WORKDIR/STAGE.log and
# a line per finished stage to WORKDIR/progress; a stage whose output exists is skipped, so
# the script resumes after an interruption. Needs Stockfish at $STOCKFISH (default
# /usr/games/stockfish); GAMES (default 12000) sets the self-play games. The match starts
# again from nothing if interrupted. About 45 minutes of data and 15-40 of match on two cores.
# EXTRA_DATA (space-separated rescored files of earlier iterations) joins the training set
# ahead of this iteration's data; validation stays on the end of this iteration's games.
set -euo pipefail

if [ $# -ne 2 ]; then
    echo "usage: $0 SEED WORKDIR" >&2
    exit 2
fi
seed=$1
work=$2
stockfish=${STOCKFISH:-/usr/games/stockfish}
games=${GAMES:-12000}
read -r -a extra <<< "${EXTRA_DATA:-}"
for f in "${extra[@]}"; do
    [ -f "$f" ] || { echo "EXTRA_DATA: no file $f" >&2; exit 2; }
done
repo=$(cd "$(dirname "$0")/.." && pwd)

mkdir -p "$work"
cd "$work"
# A work directory holds one iteration: its binary, starting network and candidate are that
# iteration's, so a run with another seed would resume from the wrong files.
if [ -f seed ] && [ "$(cat seed)" != "$seed" ]; then
    echo "$work holds the iteration of seed $(cat seed); use a new directory for seed $seed" >&2
    exit 2
fi
echo "$seed" > seed
[ -x sissa ] || cp "$repo/target/release/sissa" sissa
[ -f prev.nnue ] || cp "$repo/nets/chess.nnue" prev.nnue
bin=$PWD/sissa
note() { echo "$1 $(date -u '+%F %T')" >> progress; }

raw=chess-s$seed-n1500.bin
scored=chess-s$seed-sf5000.bin
if [ ! -f "$raw" ]; then
    "$bin" datagen --variant chess --games "$games" --nodes 1500 --seed "$seed" --threads 2 \
        --out "$raw.part" > datagen.log 2>&1
    mv "$raw.part" "$raw"
    note "datagen done"
fi
if [ ! -f "$scored" ]; then
    "$bin" datagen --rescore "$raw" \
        --engine "cmd=$stockfish proto=uci option.Hash=16 option.Threads=1" \
        --nodes 5000 --threads 2 --out "$scored.part" > rescore.log 2>&1
    mv "$scored.part" "$scored"
    note "rescore done"
fi
if [ ! -f cand.nnue ]; then
    # Validate on the last 60,000 positions (whole games, the end of the file), at most a tenth.
    # Extra files count in the share's denominator: the validation set is the same positions.
    kept=$(grep -o '[0-9]* positions (' rescore.log | tail -1 | cut -d' ' -f1)
    total=$(( $(stat -c %s "$scored" "${extra[@]}" | paste -sd+ | bc) ))
    share=$(awk -v k="$kept" -v t="$total" -v o="$(stat -c %s "$scored")" \
        'BEGIN { s = 60000 / (k * t / o); if (s > 0.1 * o / t) s = 0.1 * o / t; printf "%.16f", s }')
    "$bin" train --data "${extra[@]}" "$scored" --out cand.nnue --init prev.nnue --hidden 256 --buckets 8 \
        --epochs 2 --lr 0.00001 --lr-end 0.5 --output-lr 30 --batch 1024 --threads 2 \
        --validation "$share" --mirror --weight-decay 1 > train.log 2>&1
    note "train done"
fi
"$bin" match --variant chess --games 2000 --tc 2+0.02 --concurrency 2 \
    --engine "name=new cmd=$bin option.EvalFile=$PWD/cand.nnue proto=uci" \
    --engine "name=old cmd=$bin proto=uci" --book-plies 8 --seed $((300 + seed)) \
    --sprt elo0=0 elo1=25 --pgn sprt.pgn > sprt.log 2>&1
note "sprt done"
