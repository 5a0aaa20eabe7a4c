#!/usr/bin/env bash
# Remote job entry, 1961: a 1401 program deck punched at site A, sent over a noisy line by two
# 1013s, booted and run by the 1401 at site B (SIMH i1401), and its printer output shown.
#
#   bash examples/rje_1401.sh [WORKDIR]          (IBM1013=... to run another ibm1013 command)
#
# The job is one self-loading card.  The 1401's Load (SIMH: boot cdr) reads a card into storage
# 1-80, sets a word mark at 1 and starts at 1.  Its columns, as 1401 instructions:
#   1  ,008015   SWM 008 015   set word marks at 8 and 15 (where the next instructions start)
#   8  ,022029   SWM 022 029   word marks at 22 and 29
#  15  ,030031   SWM 030 031   word marks at 30 and 31 (31: the left end of the message)
#  22  M080250   MCW 080 250   move 31-80 (up to the word mark at 31) to the print area 201-250
#  29  2         W             print a line
#  30  .         H             halt
#  31  the message, 50 columns
set -euo pipefail
IBM1013=${IBM1013:-ibm1013}
if ! command -v i1401 >/dev/null; then
    echo "rje_1401.sh: i1401 not found: install SIMH (apt-get install simh)" >&2
    exit 2
fi
work=${1:-$(mktemp -d)}
mkdir -p "$work" && cd "$work" && work=$PWD   # a relative WORKDIR, made absolute

# site A: the source text, punched into a deck with our cards tools
cat > job.src <<'CARDS'
,008015,022029,030031M0802502.HELLO FROM SITE A, RUN AT SITE B
CARDS
$IBM1013 cards encode job.src -o job.cbn

# the line between the sites: 1200 bit/s with noise (the 1013s retransmit what it damages)
$IBM1013 line --ber 2e-4 --seed 1961 --link "$work/siteA" --link "$work/siteB" > line.out &
line=$!
trap 'kill $line 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -e siteA ] && [ -e siteB ] && break; sleep 0.1; done

# site B receives the deck in SIMH's 1401 card format; site A sends it
$IBM1013 receive siteB -o job.txt --format i1401 > receive.out &
receiver=$!
$IBM1013 send siteA job.cbn > send.out
wait $receiver
echo "site A: $(grep '^session' send.out)"

# site B: the 1401 loads the deck and runs it
cat > boot.sim <<'SIM'
attach cdr job.txt
attach lpt print.txt
boot cdr
quit
SIM
i1401 boot.sim < /dev/null > 1401.log
grep -q "HALT instruction" 1401.log || { echo "rje_1401.sh: the 1401 did not halt:" >&2; cat 1401.log >&2; exit 1; }
echo "site B printed:"
cat print.txt
