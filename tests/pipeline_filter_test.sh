#!/bin/sh
# pipeline_filter_test.sh: tagk-filter's jobs (the physical gate and its bounds, --from,
# --decimate, --noise, --lowpass, --project), alpha from the gyro, and a
# failure after output has begun.
# One theme of the pipeline battery (tests/pipeline_*_test.sh): the real
# binaries composed as a user would, over tests/lib.sh's pipeline_setup.
set -u
BIN=${BIN:-bin}
MKFIX=${MKFIX:-build/mkfixtures}
. "$(dirname "$0")/lib.sh"
pipeline_setup

# the gate's bounds from a vehicle file: a 1 kg quadrotor's body passes
printf '# a 1 kg quadrotor\nl_arm 0.15\nalpha 0.05\n' > "$tmp/quad.veh"
printf 't,m,mcx,mcy,mcz,Ixx,Ixy,Iyy,Ixz,Iyz,Izz\n1,1,0.04,0,0,2e-2,0,1e-2,0,0,3e-2\n' > "$tmp/big.csv"
expect "--physical with a Crazyflie's bounds rejects a 1 kg body" 1 "" "against --l-arm 0.0325" -- $F --physical "$tmp/big.csv"
expect "--physical --vehicle takes the vehicle's bounds" 0 "^1,1,0.04" "rejected 0 of 1 estimates \(eq. 15, L_arm 0.15 m, alpha 0.05 kg m\^2\)" -- \
	$F --physical --vehicle "$tmp/quad.veh" "$tmp/big.csv"
expect "--l-arm overrides the vehicle's" 1 "" "against --l-arm 0.01" -- $F --physical --vehicle "$tmp/quad.veh" --l-arm 0.01 "$tmp/big.csv"
printf 'rotor 0.1 0 0 1\n' > "$tmp/rotors.veh"
expect "a vehicle file without gate bounds" 1 "" "rotors.veh: no 'l_arm' or 'alpha' line for the physical gate" -- \
	$F --physical --vehicle "$tmp/rotors.veh" "$tmp/big.csv"

# alpha differentiated from gyro instead of given
$S synth --rate 250 -o "$tmp/noalpha.csv"
$R "$tmp/noalpha.csv" | $E -a kf-low | $P --format csv > "$tmp/rep_noalpha.csv"
check "alpha differentiated from gyro: final relative error below 1 %" \
	awk -F, '$1 == "relative_error" && $2 == "final" { found = 1; ok = $6 < 0.01 } END { exit !(found && ok) }' \
	"$tmp/rep_noalpha.csv"
expect "filter --from/--to" 0 "^101$" "" -- sh -c "$F --from 1 --to 2 '$tmp/syn.csv' | grep -v ^#tagk- | tail -n +2 | wc -l | tr -d ' '"
expect "filter --decimate" 0 "^200$" "" -- sh -c "$F --decimate 2 '$tmp/syn.csv' | grep -v ^#tagk- | tail -n +2 | wc -l | tr -d ' '"
$F --noise ax,ay=0.1 --seed 5 "$tmp/syn.csv" > "$tmp/n1.csv"; $F --noise ax,ay=0.1 --seed 5 "$tmp/syn.csv" > "$tmp/n2.csv"
$F --noise ax,ay=0.1 --seed 6 "$tmp/syn.csv" > "$tmp/n3.csv"
check "filter --noise: same seed, same bytes" cmp -s "$tmp/n1.csv" "$tmp/n2.csv"
check "filter --noise: another seed differs" sh -c "! cmp -s '$tmp/n1.csv' '$tmp/n3.csv'"
check "filter --noise: only the named columns change" sh -c \
	"[ \"\$(grep -v ^#tagk- '$tmp/n1.csv' | cut -d, -f1,4-)\" = \"\$(cut -d, -f1,4- '$tmp/syn.csv')\" ]"
printf 't,x\n0,0\n0.01,1\n0.02,1\n0.03,1\n' > "$tmp/step.csv"
# y(t) = 1 - exp(-2 pi fc t) sampled: 1 - exp(-2 pi 10 0.03) = 0.8482
expect "filter --lowpass: first-order response to a step" 0 "^0.03,0.848" "" -- \
	sh -c "$F --lowpass x=10 '$tmp/step.csv' | grep -v ^#tagk- | tail -1"
# the same step stamped in ms: read as seconds it would pass unfiltered
printf 't,x\n0,0\n10,1\n20,1\n30,1\n' > "$tmp/step_ms.csv"
expect "filter --lowpass on a log stamped in ms: refused, --time-unit named" 1 "" \
	"step_ms.csv: its samples are 10 s apart .*--time-unit ms" -- $F --lowpass x=10 "$tmp/step_ms.csv"
expect "... and with --time-unit ms, the response of the log in seconds" 0 "^30,0.848" "" -- \
	sh -c "$F --lowpass x=10 --time-unit ms '$tmp/step_ms.csv' | grep -v ^#tagk- | tail -1"
expect "--time-unit without --lowpass: an error, not ignored" 2 "" "--time-unit applies to --lowpass" -- \
	$F --time-unit ms "$tmp/step_ms.csv"
expect "filter --project makes estimates consistent" 0 "" "projected 10 of 10 estimates" -- \
	sh -c "printf 't,m,mcx,mcy,mcz,Ixx,Ixy,Iyy,Ixz,Iyz,Izz\n' > '$tmp/bad_est.csv';
	for i in 0 1 2 3 4 5 6 7 8 9; do echo \"\$i,-0.01,0,0,0,1e-5,0,1e-5,0,0,3e-5\" >> '$tmp/bad_est.csv'; done;
	$F --project '$tmp/bad_est.csv' > /dev/null"
expect "filter on a mass stream holds the last valid estimate" 0 "^2,0.04$" "rejected 1 of 4" -- \
	sh -c "printf 't,m\n1,0.04\n2,-0.02\n3,0.04\n4,0.05\n' | $F --physical | sed -n 4p"
expect "filter --physical with no valid estimate" 1 "" "no row left: eq. 15 rejected all 1 estimates: m <= 0 in 1$" -- \
	sh -c "printf 't,m\n1,-1\n' | $F --physical"
# a body with c = (0.04, 0, 0) m and inertia eigenvalues up to 2e-4: each
# condition named with its worst value and the option that sets the bound
expect "filter --physical says which condition failed and by how much" 1 "" \
	"rejected all 1 estimates: \|\|c\|\| > L_arm in 1 \(largest 0.04 m against --l-arm 0.0325\); lambda_max > alpha in 1 \(largest 0.0002 kg m\^2 against --alpha 0.0001\)" -- \
	sh -c "printf 't,m,mcx,mcy,mcz,Ixx,Ixy,Iyy,Ixz,Iyz,Izz\n1,1,0.04,0,0,2e-4,0,1e-4,0,0,1e-4\n' | $F --physical"
# A failure after output has begun: the stream ends with an error marker,
# and the next command turns it into an error of its own.
$S synth --duration 60 | grep -v '^#tagk-' > "$tmp/big.csv"
sed '5900s/^\([^,]*\),[^,]*/\1,nan/' "$tmp/big.csv" > "$tmp/bignan.csv"
$R "$tmp/bignan.csv" > "$tmp/bigreg.csv" 2>/dev/null
check "a late failure ends stdout with the error marker" sh -c "tail -1 '$tmp/bigreg.csv' | grep -q '^#tagk-error: .*NaN'"
expect "... which the next command reports" 1 "" "the command upstream failed: .*bignan.csv:5900: column 'ax': NaN" -- \
	$E "$tmp/bigreg.csv"
expect "closed pipe is quiet" 0 "^t,ax" "" -- sh -c "$S synth --duration 600 | head -2 | tail -1"

finish
