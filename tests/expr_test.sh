#!/bin/sh
# expr_test.sh: tagk-filter's --where and --eval mean one thing (issue 52):
# no assignment, no comma operator, NaN never read as false, a column named
# like a constant or function is the column, parse errors say where, a
# long expression is refused when read; and the grammar's precedence
# checked against values computed here by awk. Also the text readers'
# byte-order mark and the CSV reader's note on a cut last line.
set -u
BIN=${BIN:-bin}
. "$(dirname "$0")/lib.sh"
F=$BIN/tagk-filter

printf 't,a,b,_pi\n1,4,1,7\n2,-1,2,7\n3,9,3,7\n' > "$tmp/d.csv"

# --- what is refused when the expression is read -----------------------------
for op in '=' '+=' '-=' '*=' '/='; do
	expect "--where 'a${op}1': assignment refused, its place named" 2 "" "'=' at character [23] assigns" -- \
		$F --where "a${op}1" "$tmp/d.csv"
done
expect "--where 'a = = 1': refused" 2 "" "'=' at character 3 assigns" -- $F --where 'a = = 1' "$tmp/d.csv"
expect "--eval's right side may not assign" 2 "" "--eval z '\(a=9\)': '=' at character 3 assigns" -- \
	$F --eval 'z=(a=9)' --eval 'w=a' "$tmp/d.csv"
expect "--eval of one name twice: refused, named" 2 "" "--eval x: given twice" -- \
	$F --eval 'x=a' --eval 'x=b' "$tmp/d.csv"
expect "--where 'a>5, b>0': the comma operator refused" 2 "" "2 expressions separated by commas" -- \
	$F --where 'a>5, b>0' "$tmp/d.csv"
expect "--where '(a, b)': refused" 2 "" "without a function" -- $F --where '(a, b)' "$tmp/d.csv"
expect "--where 'a++': says what is wrong, not 'Internal error'" 2 "" "incomplete expression: an operator without its operand" -- \
	$F --where 'a++' "$tmp/d.csv"
expect "--where '!a': an operator not in the grammar, its place named" 2 "" "at character 1 \('!a'\)" -- \
	$F --where '!a' "$tmp/d.csv"
expect "--where '\"x\"': strings refused" 2 "" "Strings must only be used as function arguments" -- \
	$F --where '"x"' "$tmp/d.csv"
expect "a parse error names the character, not the data" 2 "" "--where 'a > \(b': Missing parenthesis, at character 7 \(the end\)" -- \
	$F --where 'a > (b' "$tmp/d.csv"
expect "... and in the middle of the text" 2 "" "at character 4 \('\*\* 2'\)" -- $F --where 'a *** 2' "$tmp/d.csv"
long=$(awk 'BEGIN { for (i = 0; i < 2500; i++) printf "a+"; printf "1>0" }')
expect "an expression over 4096 characters refused when read" 2 "" "5003 characters: an expression has at most 4096" -- \
	$F --where "$long" "$tmp/d.csv"
long=$(awk 'BEGIN { for (i = 0; i < 12000; i++) printf "a+"; printf "1>0" }')
expect "... and one over muParser's 20000, the reason not lost" 2 "" "^tagk-filter: --where 'a\+a\+.{50,}\.\.\.': 24003 characters" -- \
	$F --where "$long" "$tmp/d.csv"
ok4000=$(awk 'BEGIN { printf "a"; for (i = 0; i < 1998; i++) printf "+0"; printf ">5" }')
expect "... while 3999 characters are read" 0 "^3,9,3,7" "" -- $F --stream csv --where "$ok4000" "$tmp/d.csv"

# --- no state between expressions or rows -------------------------------------
expect "--eval w=a is a, whatever came before" 0 "*" "" -- \
	$F --stream csv --eval 'z=a*2' --eval 'w=a' "$tmp/d.csv" -o "$tmp/w.csv"
plain "$tmp/w.csv" > "$tmp/w.p"
check "... w equals a and z is 2a on every row" sh -c \
	"awk -F, 'NR > 1 { if (\$6 != \$2 || \$5 != 2 * \$2) bad++; n++ } END { exit bad || n != 3 }' '$tmp/w.p'"

# --- NaN is not false ----------------------------------------------------------
expect "--where 'sqrt(a) > 0': the NaN row refused, named" 1 "" "d.csv:3: --where is neither true nor false here \(NaN: 'sqrt' met or made NaN" -- \
	$F --where 'sqrt(a) > 0' "$tmp/d.csv"
expect "... or skipped and counted with --skip-bad" 0 "*" "skipped 1 row where an expression was not finite" -- \
	$F --stream csv --skip-bad --where 'sqrt(a) > 0' "$tmp/d.csv" -o "$tmp/s.csv"
plain "$tmp/s.csv" > "$tmp/s.p"
check "... which keeps the other two rows" sh -c "[ \"\$(cut -d, -f1 '$tmp/s.p' | tr '\n' ' ')\" = 't 1 3 ' ]"
expect "&& does not hide a NaN on its other side" 1 "" "d.csv:3: .*'sqrt' met or made NaN" -- \
	$F --where 'a > 0 && sqrt(a) > 1' "$tmp/d.csv"
expect "NaN^0 is not 1" 1 "" "d.csv:3: .*NaN" -- $F --where 'sqrt(a)^0 == 1' "$tmp/d.csv"
expect "sign(NaN) is not 0" 1 "" "d.csv:3: .*NaN" -- $F --where 'sign(sqrt(a)) == 0' "$tmp/d.csv"
expect "min(NaN, x) is not x" 1 "" "d.csv:3: .*NaN" -- $F --where 'min(sqrt(a), 5) < 10' "$tmp/d.csv"
expect "a NaN condition of ?: is not true" 1 "" "d.csv:3: .*NaN" -- $F --where '(sqrt(a) > 1) ? 1 : 0' "$tmp/d.csv"
expect "0/0 in an --eval names the row" 1 "" "d.csv:2: --eval x gives nan: '/' met or made NaN" -- \
	$F --eval 'x=(a-4)/(a-4)' "$tmp/d.csv"

# --- names ---------------------------------------------------------------------
expect "a column named _pi is the column, not the constant" 0 "^3,9,3,7" "" -- \
	$F --stream csv --where '_pi == 7 && a > 5' "$tmp/d.csv"
printf 't,sin,_e\n1,2,3\n2,0,3\n' > "$tmp/f.csv"
expect "a column named sin is the column; sin( the function" 0 "^1,2,3" "" -- \
	$F --stream csv --where 'sin > 1 && sin(sin) > 0.9 && _e == 3' "$tmp/f.csv"
printf 't\n1\n' > "$tmp/t.csv"
expect "_pi to double precision where no column has the name" 0 "*" "" -- \
	$F --stream csv --eval 'p=_pi' --eval 'q=_e' "$tmp/t.csv" -o "$tmp/pi.csv"
plain "$tmp/pi.csv" > "$tmp/pi.p"
check "... 3.141592653589793 and 2.718281828459045" sh -c \
	"awk -F, 'NR == 2 { ok = \$2 == \"3.141592653589793\" && \$3 == \"2.718281828459045\" } END { exit !ok }' '$tmp/pi.p'"
expect "an unknown name is named" 2 "" "unknown name 'c' \(not a column of the input, nor a function\)" -- \
	$F --where 'c > 1' "$tmp/d.csv"

printf 't,x\n1,10.787701250940003\n' > "$tmp/sq.csv"
expect "x^2 is x*x, rounded once (glibc's pow(x, 2) is an ulp off here)" 0 "^1,10.787701250940003$" "" -- \
	$F --stream csv --where 'x^2 == x*x && x^2 == 116.3744982795325' "$tmp/sq.csv"

# --- the grammar against awk -------------------------------------------------------
expect "precedence and associativity: values" 0 "*" "" -- $F --stream csv \
	--eval 'v=-a^2 + 2^3^2 - a - b - 1 + 2^-1 * 6 / 3' \
	--eval 'c=a > 3 || b > 2 && a < 0' \
	--eval 'm=min(a, b, 2) + max(a, 0) + sum(a, b) + avg(a, b, 3) + atan2(1, 1) * 4 + abs(a) + log(_e) + log10(100)' \
	--eval 'k=a > 0 ? a : b == 2 ? 20 : 30' "$tmp/d.csv" -o "$tmp/g.csv"
plain "$tmp/g.csv" > "$tmp/g.p"
check "... as awk computes them" sh -c "awk -F, 'NR > 1 {
	a = \$2; b = \$3
	v = -(a^2) + 2^9 - a - b - 1 + 0.5 * 6 / 3
	c = (a > 3 || (b > 2 && a < 0)) ? 1 : 0
	mn = a; if (b < mn) mn = b; if (2 < mn) mn = 2
	mx = a > 0 ? a : 0
	m = mn + mx + (a + b) + (a + b + 3) / 3 + atan2(1, 1) * 4 + (a < 0 ? -a : a) + 1 + 2
	k = a > 0 ? a : (b == 2 ? 20 : 30)
	if (\$5 - v > 1e-9 || v - \$5 > 1e-9 || \$6 != c || \$7 - m > 1e-9 || m - \$7 > 1e-9 || \$8 != k) bad++
	n++ } END { exit bad || n != 3 }' '$tmp/g.p'"

# --- a UTF-8 byte-order mark at the start of a text file ------------------------
bom() { printf '\357\273\277' | cat - "$1" > "$2"; }
R=$BIN/tagk-regress
printf 't,m,mcx,mcy,mcz,Ixx,Ixy,Iyy,Ixz,Iyz,Izz\n0,0.035,0,0,0,1.66e-5,0,1.66e-5,0,0,2.93e-5\n' > "$tmp/est.csv"
# the mark on the line of a key the output shows: l_arm
{ echo 'l_arm 0.05'; grep -v -e '^#' -e '^l_arm' -e '^$' datasets/crazyflie2.veh; } > "$tmp/plain.veh"
bom "$tmp/plain.veh" "$tmp/bom.veh"
expect "a vehicle file that starts with a byte-order mark: its first key read" 0 "*" "L_arm 0.05 m" -- \
	$F --physical --vehicle "$tmp/bom.veh" "$tmp/est.csv"
printf 'l_arm 0.05\n' | iconv -f UTF-8 -t UTF-16 > "$tmp/u16.veh"
printf 'l_arm 0.05\n' | iconv -f UTF-8 -t UTF-16LE > "$tmp/u16le.veh"
for v in u16 u16le; do
	expect "a UTF-16 vehicle file ($v): refused, with the command that converts it" 1 "" \
		"$v.veh:1: a NUL byte: not a text file of tagk's \(UTF-16 text\? convert it to UTF-8 first, e.g. iconv" -- \
		$F --physical --vehicle "$tmp/$v.veh" "$tmp/est.csv"
done
zcat datasets/panda-payload.csv.gz | head -120 > "$tmp/pp.csv"
RM="$R -m multibody --held link7 --map t=time --map q=pos_{1..7} --map qd=vel_* --map tau=eff_{1..7}"
$RM --robot datasets/panda.model "$tmp/pp.csv" > "$tmp/model.reg" 2>/dev/null
bom datasets/panda.model "$tmp/bom.model"
expect "a model text file that starts with a byte-order mark is not taken for XML" 0 "*" "*" -- \
	$RM --robot "$tmp/bom.model" "$tmp/pp.csv" -o "$tmp/bom.reg"
check "... and gives the rows the file without the mark gives" cmp -s "$tmp/model.reg" "$tmp/bom.reg"
$RM --robot datasets/panda.urdf "$tmp/pp.csv" > "$tmp/urdf.reg" 2>/dev/null
bom datasets/panda.urdf "$tmp/bom.urdf"
expect "a URDF that starts with a byte-order mark is read as XML" 0 "*" "*" -- \
	$RM --robot "$tmp/bom.urdf" "$tmp/pp.csv" -o "$tmp/bomu.reg"
check "... the same rows" cmp -s "$tmp/urdf.reg" "$tmp/bomu.reg"
awk 'BEGIN { for (j = 1; j <= 7; j++) printf "joint %d 0.%d 0.0%d 0\n", j, j, j }' > "$tmp/fr.txt"
$RM --robot datasets/panda.model --friction "$tmp/fr.txt" "$tmp/pp.csv" > "$tmp/fr.reg" 2>/dev/null
bom "$tmp/fr.txt" "$tmp/bomfr.txt"
expect "a friction file that starts with a byte-order mark" 0 "*" "*" -- \
	$RM --robot datasets/panda.model --friction "$tmp/bomfr.txt" "$tmp/pp.csv" -o "$tmp/bomfr.reg"
check "... the same rows, which the friction changed" sh -c "cmp -s '$tmp/fr.reg' '$tmp/bomfr.reg' && ! cmp -s '$tmp/fr.reg' '$tmp/model.reg'"
$BIN/tagk-bench table2 --trials 2 --noise none --methods tagk --shard 0/2 > "$tmp/s0.csv" 2>/dev/null
bom "$tmp/s0.csv" "$tmp/bomshard.csv"
expect "a tagk-bench shard file with a byte-order mark is read as a shard" 1 "" "shard 1/2 is missing \(1 of 2 given\)" -- \
	$BIN/tagk-bench merge --format csv "$tmp/bomshard.csv"
bom "$tmp/d.csv" "$tmp/bomd.csv"
expect "a CSV log that starts with a byte-order mark: the first column is t" 0 "^1,4,1,7" "" -- \
	$F --stream csv --where 't < 2' "$tmp/bomd.csv"
printf 'x,\357\273\277y\n1,2\n' > "$tmp/midbom.csv"
expect "... a mark elsewhere is part of the name" 2 "" "unknown name 'y'" -- $F --where 'y > 0' "$tmp/midbom.csv"

# --- a plain CSV whose last line has no line end --------------------------------
printf 't,a\n1,2\n2,3.2' > "$tmp/cut.csv"
expect "a last line without its line end: a note naming file and line, the row read" 0 "^2,3.2$" \
	"^tagk-filter: .*cut.csv:3: note: the last line has no line end: the file may have been cut there" -- \
	$F --stream csv "$tmp/cut.csv"
expect "... from standard input too" 0 "^2,3.2$" "^tagk-filter: stdin:3: note: the last line has no line end" -- \
	sh -c "$F --stream csv - < '$tmp/cut.csv'"
gzip -c "$tmp/cut.csv" > "$tmp/cut.csv.gz"
expect "... and inside a gzip file" 0 "^2,3.2$" "cut.csv.gz:3: note: the last line has no line end" -- \
	$F --stream csv "$tmp/cut.csv.gz"
printf 't,a\n1,2\n2,3.2e' > "$tmp/cut2.csv"
expect "... before the error of a number cut mid-exponent" 1 "" "cut2.csv:3: note: .*" -- $F "$tmp/cut2.csv"
printf 't,a\r\n1,2\r\n' > "$tmp/whole.csv"
expect "a file that ends with its line end: no note" 0 "*" "" -- $F --stream csv "$tmp/whole.csv"
expect "a tagk-regress input: the same note" 0 "*" "pp2.csv:120: note: the last line has no line end" -- \
	sh -c "head -c -1 '$tmp/pp.csv' > '$tmp/pp2.csv' && $RM --robot datasets/panda.model '$tmp/pp2.csv' -o '$tmp/pp2.reg'"

finish
