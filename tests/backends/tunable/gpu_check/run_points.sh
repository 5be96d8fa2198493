#!/bin/bash
# Builds gemv_check.cu at every legal point of resources/kernels/gemv/gemv.tune.json
# (nvcc, sm_90) and runs each on the GPU, one at a time. Usage: run_points.sh OUTFILE [N (M = K = N, default 4096)]
set -u
size=${2:-4096}
here=$(cd "$(dirname "$0")" && pwd)
kernels=$here/../../../../resources/kernels/gemv
work=$(mktemp -d)
points=()
for R in 1 2 4 8 16; do for T in 32 64 128 256; do for V in 1 2 4; do for U in 1 2 4; do
  t=$((R * T)); if [ $t -le 1024 ] && [ $t -ge 64 ]; then points+=("$R $T $V $U"); fi
done; done; done; done
echo "${#points[@]} legal points"
printf '%s\n' "${points[@]}" | xargs -P 16 -L 1 bash -c 'nvcc -O3 -arch=sm_90 -I'"$kernels"' -DROWS=$0 -DTHREADS_PER_ROW=$1 -DVEC=$2 -DUNROLL=$3 -o '"$work"'/gemv_$0_$1_$2_$3 '"$here"'/gemv_check.cu'
fails=0
COPY=1 "$work/gemv_4_128_4_2" "$size" | head -1 | tee "$1.copy"
for p in "${points[@]}"; do set -- $p; "$work/gemv_$1_$2_$3_$4" "$size" || fails=$((fails + 1)); done | tee "$1"
echo "done"
