#!/bin/sh
# realdata_test.sh: the pipeline on real Crazyflie logs (../shared/realdata,
# never committed). Skips with a message when they are absent.
#
# The reference is the log's own hover figure: mean commanded thrust over
# mean specific force along body z, computed here with awk from the raw log,
# independently of the estimators. The median mass estimate of the baselines
# must agree within 3 %, with both the mass and the rigid-body models, and
# so must that of the state-space mass estimators.
set -u
BIN=${BIN:-bin}
D=${REALDATA:-../shared/realdata/crazyflie}
. "$(dirname "$0")/lib.sh"
R=$BIN/tagk-regress E=$BIN/tagk-estimate F=$BIN/tagk-filter

if [ ! -f "$D/log201" ] || [ ! -f "$D/log182" ]; then
	echo "realdata: skipped: no Crazyflie logs in $D (they live in ../shared, beside the repository)"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi

# the awk helpers read tagk's streams: marker lines skipped, then the header
median_mass() { awk -F, '/^#tagk-/ { next } !h { h = 1; next } { print $2 }' | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
within() { awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = (a - b) / b; if (d < 0) d = -d; exit !(d < p / 100) }'; }
# every cell a finite number, but an sd_* cell may be empty (no uncertainty yet)
all_finite() { awk -F, '/^#tagk-/ { next } !h { h = 1; for (i = 1; i <= NF; i++) sd[i] = $i ~ /^sd_/; next }
	{ n++; for (i = 1; i <= NF; i++) if ($i !~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/ && !(sd[i] && $i == "")) bad = 1 }
	END { exit bad || n == 0 }' "$1"; }

for log in 201 182; do
	$F "$D/log$log" -o "$tmp/raw$log.tagk" || { echo "FAIL reading log$log"; exit 1; }
	plain "$tmp/raw$log.tagk" > "$tmp/raw$log.csv"
	hover=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "ctrlLee.thrustSI") T = i; if ($i == "acc.z") Z = i }; next }
		{ st += $T; sz += $Z * 9.80665 } END { printf "%.6f", st / sz }' "$tmp/raw$log.csv")
	echo "log$log: hover thrust / hover specific force = $hover kg"
	for model in mass rigid-body; do
		for method in rls-low kf-low rk tagk tagk-robust; do
			$R --preset crazyflie -m $model "$D/log$log" | $E -q -a $method > "$tmp/est.csv"
			check "log$log $model $method: estimates are finite" all_finite "$tmp/est.csv"
			med=$(median_mass < "$tmp/est.csv")
			if [ "$method-$model" = tagk-rigid-body ] || [ "$method-$model" = tagk-robust-rigid-body ]; then
				# Not asserted: greedy row selection is biased on the rigid
				# body's rows of this data (see tagk-papers(7)); tagk-robust's
				# rigid-body mass unscaled (no --theta0, no --length) is
				# 1.5-3.4 % low. Reported so that a change shows up. The
				# mass model, whose rows are the thrust's z rows alone, is
				# asserted for every method.
				echo "info log$log $model $method: median mass $med kg (hover figure $hover)"
			else
				check "log$log $model $method: median mass $med within 3 % of $hover" within "$med" "$hover" 3
			fi
		done
	done
	# tagk-robust on the rigid body with its parameters scaled by the
	# Crazyflie's size: 0.030 m, the radius of gyration sqrt(tr(I) / (2 m))
	# of its published inertia (Foerster 2015: m 0.027 kg, diag(1.395,
	# 1.436, 2.173)e-5 kg m^2), not a value fitted to these logs
	$R --preset crazyflie -m rigid-body "$D/log$log" | $E -q -a tagk-robust --length 0.03 > "$tmp/est.csv"
	med=$(median_mass < "$tmp/est.csv")
	check "log$log rigid-body tagk-robust --length 0.03: median mass $med within 3 % of $hover" within "$med" "$hover" 3
done

# The state-space methods of paper 001 on the same logs, from the
# controller's attitude and the state estimate (tagk-regress -m state
# --preset crazyflie). log182 opens with a 1.5 s gap, which is refused; from
# 50 s on it is continuous.
expect "log182: the gap is refused" 1 "" "a gap of 1.49453 s after t = 48.392616" -- \
	sh -c "$R -m state --preset crazyflie '$D/log182' | $E -a ekf"
expect "log201: roll and pitch swapped do not turn with the gyro: refused" 1 "" \
	"the attitude \(ctrlLee.rpyy,ctrlLee.rpyx,ctrlLee.rpyz\) does not turn with the gyro" -- \
	$R -m state --preset crazyflie --map rpy=ctrlLee.rpyy,ctrlLee.rpyx,ctrlLee.rpyz "$D/log201"
$F --stream csv "$D/log201" | awk -F, -v OFS=, -v CONVFMT=%.17g '/^#/ { next } !h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	{ for (k = 0; k < 3; k++) $c["ctrlLee.rpy" substr("xyz", k + 1, 1)] *= 57.29577951308232; print }' > "$tmp/rpydeg.csv"
expect "log201: roll, pitch and yaw in degrees: refused" 1 "" \
	"rpydeg.csv: the attitude \(ctrlLee.rpyx,ctrlLee.rpyy,ctrlLee.rpyz\) does not turn with the gyro.*in rad" -- \
	$R -m state --preset crazyflie "$tmp/rpydeg.csv"
for log in 201 182; do
	from=0
	[ $log = 182 ] && from=50
	hover=$(awk -F, -v from=$from 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "ctrlLee.thrustSI") T = i; if ($i == "acc.z") Z = i }; next }
		{ st += $T; sz += $Z * 9.80665 } END { printf "%.6f", st / sz }' "$tmp/raw$log.csv")
	for method in ekf msckf ukf swls; do
		$F --from $from "$D/log$log" | $R -m state --preset crazyflie | $E -a $method > "$tmp/est.csv"
		check "log$log $method: estimates are finite" all_finite "$tmp/est.csv"
		med=$(median_mass < "$tmp/est.csv")
		check "log$log $method: median mass $med within 3 % of $hover" within "$med" "$hover" 3
	done
done

# The roll-pitch-yaw convention (Z-Y-X) against the data itself: the
# accelerometer rotated into the world must correlate with the derivative of
# the estimated velocity on x; with pitch's sign flipped it anti-correlates.
corr_x() {
	awk -F, -v sg="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$(c["t"]) > 50 { t[NR] = $(c["t"]); v[NR] = $(c["stateEstimateZ.vx"]) / 1000
		  r = $(c["ctrlLee.rpyx"]); p = sg * $(c["ctrlLee.rpyy"]); y = $(c["ctrlLee.rpyz"])
		  ax = $(c["acc.x"]); ay = $(c["acc.y"]); az = $(c["acc.z"])
		  a[NR] = 9.80665 * (cos(y) * cos(p) * ax + (cos(y) * sin(p) * sin(r) - sin(y) * cos(r)) * ay \
		      + (cos(y) * sin(p) * cos(r) + sin(y) * sin(r)) * az) }
		END { for (i = 2; i < NR; i++) if ((i - 1) in t && (i + 1) in t) {
			dt = t[i + 1] - t[i - 1]; if (dt <= 0 || dt > 0.02) continue
			d = (v[i + 1] - v[i - 1]) / dt; sxy += a[i] * d; sxx += a[i] * a[i]; syy += d * d }
		  printf "%.3f", sxy / sqrt(sxx * syy) }' "$tmp/raw182.csv"
}
cz=$(corr_x 1) cf=$(corr_x -1)
check "Z-Y-X roll, pitch, yaw: world acceleration follows dv/dt on x (correlation $cz)" \
	awk -v c="$cz" 'BEGIN { exit !(c > 0.5) }'
check "... and with pitch's sign flipped it does not (correlation $cf)" awk -v c="$cf" 'BEGIN { exit !(c < -0.5) }'

# A new user's CSV with foreign column names, mapped with --map, gives the
# estimates the preset gives on the binary log.
sed '1s/acc\.x/imu_ax/; 1s/acc\.y/imu_ay/; 1s/acc\.z/imu_az/; 1s/ctrlLee\.omegax/w_x/; 1s/ctrlLee\.omegay/w_y/;
	1s/ctrlLee\.omegaz/w_z/; 1s/ctrlLee\.thrustSI/T_cmd/; 1s/ctrlLee\.torquex/tau_x/; 1s/ctrlLee\.torquey/tau_y/;
	1s/ctrlLee\.torquez/tau_z/; 1s/^t,/time,/' "$tmp/raw201.csv" > "$tmp/foreign.csv"
# (--scale-sd: the crazyflie preset's commanded thrust carries crazyflie2's
# command_sd, which a foreign CSV has to state)
sc=$(awk '$1 == "command_sd" { print $2 }' datasets/crazyflie2.veh)
$R --map t=time --map acc=imu_ax,imu_ay,imu_az --acc-unit g --map gyro=w_x,w_y,w_z --map thrust=T_cmd \
	--map torque=tau_x,tau_y,tau_z --scale-sd "$sc" "$tmp/foreign.csv" | $E -a rls-low > "$tmp/e_foreign.csv"
$R --preset crazyflie "$D/log201" | $E -a rls-low > "$tmp/e_preset.csv"
check "foreign CSV mapped with --map equals the preset on the uSD log" cmp -s "$tmp/e_foreign.csv" "$tmp/e_preset.csv"
# --- a user's answers on the real logs: flight spans, calibration, flags ---
P=$BIN/tagk-report
expect "log201 --airborne: one span, most of the log" 0 "*" "--airborne: kept 1 span, 1[5-9].[0-9] of [0-9.]+ s \((9[0-9]|100) %\)" -- \
	$R -m mass --airborne "$D/log201" -o "$tmp/air201.reg"
expect "--calibrate-mass on log201 (41.9 g, its info file): the scale that makes the commanded thrust the weight" 0 "" \
	"--calibrate-mass: thrust scale 1.0[0-9]+ over [0-9]+ airborne samples" -- \
	$R --calibrate-mass 0.0419 "$D/log201" -o "$tmp/cf201.veh"
$R -m mass --airborne --vehicle "$tmp/cf201.veh" "$D/log201" 2>/dev/null | $E > "$tmp/cal201.est"
med=$(median_mass < "$tmp/cal201.est")
check "... with it log201's median mass is 41.9 g within 1 % ($med)" within "$med" 0.0419 1
expect "... which tagk-report checks against the file's nominal mass, silently" 0 "last, 95 % interval" "" -- \
	$P --vehicle "$tmp/cf201.veh" --strict "$tmp/cal201.est"
$R --preset crazyflie "$D/log201" 2>/dev/null | $E --raw > "$tmp/rb201.est"
expect "rigid body without rotational excitation: the report prints the inertia as not determined" 0 \
	"not determined, .*(Ixy|Ixz|Iyz|Izz)" "" -- $P "$tmp/rb201.est"
expect "... and --strict judges the determined parameters (the mass) only: it passes" 0 \
	"verdicts judge the determined parameters only" "" -- $P --strict "$tmp/rb201.est"

finish
