#!/usr/bin/env bash
# Remote job entry both ways: a job deck punched at site A goes over a noisy line into the card
# reader of a running S/370 (Hercules) at site B; the 370 runs it, and what its 1403 prints comes
# back down the same line to site A, a card a line.
#
#   bash examples/rje_hercules.sh WORKDIR [DATA.txt]      (IBM1013=... to run another ibm1013 command)
#
# The job is the LIST program of examples/hercules/ behind the S/370 card loader, with DATA.txt as
# its data cards (one card a line; the sample examples/data/cards.txt when not given).  Site A gets
# WORKDIR/listing.txt: one printed line a line, the card's number in columns 1-6, the card from
# column 9 (a printed line is cut at column 80 to fit a card: keep data lines to 72 columns).
# The environment may set BIT_RATE (default 1200), READER_PORT (3505), PRINTER_PORT (1403) and
# HTTP_PORT (8081: Hercules' console commands).
set -euo pipefail
IBM1013=${IBM1013:-ibm1013}
if ! command -v hercules >/dev/null; then
    echo "rje_hercules.sh: hercules not found: install Hercules (apt-get install hercules)" >&2
    exit 2
fi
examples=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
data=$(realpath "${2:-$examples/data/cards.txt}")
work=${1:?usage: rje_hercules.sh WORKDIR [DATA.txt]}
mkdir -p "$work" && cd "$work" && work=$PWD
rate=${BIT_RATE:-1200} reader=${READER_PORT:-3505} printer=${PRINTER_PORT:-1403} http=${HTTP_PORT:-8081}

# site A punches the job: the loader, the program, the data cards (object decks are binary cards)
$IBM1013 cards encode "$examples/hercules/loader.lst" --listing --format ebcdic -o loader.ebcdic
$IBM1013 cards encode "$examples/hercules/list.lst" --listing --format ebcdic -o list.ebcdic
$IBM1013 cards encode "$data" --format ebcdic -o data.ebcdic
$IBM1013 cards cat loader.ebcdic list.ebcdic data.ebcdic --to ebcdic -o job.ebcdic

# site B: the 370, its reader and its printer on sockets
cat > rje.cnf <<CNF
ARCHMODE S/370
MAINSIZE 16
NUMCPU 1
CPUMODEL 3090
HTTPPORT $http NOAUTH
000C 3505 127.0.0.1:$reader sockdev ebcdic trunc eof
000E 1403 127.0.0.1:$printer sockdev
CNF
hercules -f rje.cnf -d > hercules.log 2>&1 &
hercules=$!
# the line between the sites: noise that the 1013s retransmit through
$IBM1013 line --bit-rate "$rate" --ber 2e-4 --seed 1961 --link "$work/siteA" --link "$work/siteB" > line.out &
line=$!
trap 'kill $line 2>/dev/null || true; kill -9 $hercules 2>/dev/null || true' EXIT
for _ in $(seq 300); do
    [ "$(grep -c 'bound to socket' hercules.log)" = 2 ] && grep -q 'HTTP requests' hercules.log \
        && [ -e siteA ] && [ -e siteB ] && break
    sleep 0.1
done
ends=(--bit-rate "$rate")

# the job goes in: site B feeds the reader as the cards arrive, site A sends
$IBM1013 receive siteB -o "sockdev://127.0.0.1:$reader" --format ebcdic --column-binary "${ends[@]}" \
    > job-in.out &
receiver=$!
$IBM1013 send siteA job.ebcdic --format ebcdic --column-binary "${ends[@]}" > job-out.out
wait $receiver
echo "job sent: $(grep '^session' job-out.out)"

# the line turned around: site B sends what the printer prints, site A receives it
$IBM1013 send siteB --follow "sockdev://127.0.0.1:$printer" --idle 3 "${ends[@]}" > listing-out.out &
sender=$!
$IBM1013 receive siteA -o listing.txt --format text "${ends[@]}" > listing-in.out &
receiver=$!
for _ in $(seq 300); do grep -q 'connected to device 000E' hercules.log && break; sleep 0.1; done
python3 -c "import urllib.request as u; u.urlopen('http://127.0.0.1:$http/cgi-bin/tasks/cmd?cmd=ipl%2000c').read()"
wait $sender
wait $receiver
echo "listing back: $(grep '^session' listing-out.out)"
echo "site A received:"
cat listing.txt
