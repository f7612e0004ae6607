#!/usr/bin/env bash
# Run a command and say its wall time and how busy the machine's cores were meanwhile (the cpu
# line of /proc/stat before and after): a test suite's figure means something only when the
# machine was its own.   tools/cpu_ticks.sh .venv/bin/pytest -p no:cacheprovider
set -u
read -r _ u n s i w x y z _ < /proc/stat
t0=$(date +%s.%N)
"$@"
code=$?
read -r _ u2 n2 s2 i2 w2 x2 y2 z2 _ < /proc/stat
t1=$(date +%s.%N)
busy=$(( (u2 + n2 + s2 + x2 + y2 + z2) - (u + n + s + x + y + z) ))
idle=$(( (i2 + w2) - (i + w) ))
echo "wall $(echo "$t1 - $t0" | bc) s; busy ${busy} ticks, idle ${idle} ticks ($(( 100 * idle / (busy + idle + 1) ))% idle)" >&2
exit $code
