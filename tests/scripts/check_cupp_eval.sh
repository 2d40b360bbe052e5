#!/usr/bin/env bash
# `cupp eval` end to end on the GPU: writes .npy inputs (with python3 + NumPy when present,
# else as hand-written .npy bytes), evaluates expressions, checks the saved results, the
# --batch output (also with --jobs and --parse-only), and each error path (class name on stderr, exit code 2).
# Exits 77 (CTest SKIP_RETURN_CODE) when `cupp info` reports no usable GPU.
# usage: check_cupp_eval.sh CUPP_BINARY [WORK_DIR]
set -uo pipefail
cupp=$1
work=${2:-$(mktemp -d /tmp/cupp-eval.XXXXXX)}
mkdir -p "$work"
cd "$work" || exit 1
rm -f ./*.npy ./*.npz batch.txt ops_batch.txt  # results of an earlier run must not count
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

info=$("$cupp" info 2>&1)
if ! grep -q "device count" <<<"$info" ||
   grep -qE "No CUDA driver found|No CUDA device found|CUDA cannot be used" <<<"$info"; then
  echo "SKIPPED: no CUDA device (cupp info reports no usable GPU)"
  exit 77
fi

# ---- inputs
# A .npy file by hand: magic, version 1.0, header length (little-endian u16), the dict padded
# with spaces to a multiple of 64 bytes with a final newline, then the raw little-endian data
# given as printf escapes.
npy_by_hand() {  # FILE DESCR SHAPE DATA_ESCAPES
  local dict="{'descr': '$2', 'fortran_order': False, 'shape': $3, }"
  local total=$(( (10 + ${#dict} + 1 + 63) / 64 * 64 ))
  local pad=$(( total - 10 - ${#dict} - 1 ))
  local hlen=$(( total - 10 ))
  {
    printf '\x93NUMPY\x01\x00'
    printf "\\x$(printf %02x $((hlen & 255)))\\x$(printf %02x $((hlen >> 8)))"
    printf '%s%*s\n' "$dict" "$pad" ""
    printf "$4"
  } >"$1"
}
if python3 -c "import numpy" 2>/dev/null; then
  python3 - <<'PY'
import numpy as np
np.save("a.npy", np.array([1.0, 2.0, 3.0, 4.0]))
np.save("b.npy", np.array([10.0, 20.0, 30.0, 40.0]))
np.save("s3.npy", np.array([1.0, 2.0, 3.0]))
np.save("u8.npy", np.array([1, 2, 3], dtype=np.uint8))
PY
else
  # IEEE-754 doubles, little-endian: 1, 2, 3, 4, 10, 20, 30, 40
  d1='\x00\x00\x00\x00\x00\x00\xf0\x3f' d2='\x00\x00\x00\x00\x00\x00\x00\x40'
  d3='\x00\x00\x00\x00\x00\x00\x08\x40' d4='\x00\x00\x00\x00\x00\x00\x10\x40'
  d10='\x00\x00\x00\x00\x00\x00\x24\x40' d20='\x00\x00\x00\x00\x00\x00\x34\x40'
  d30='\x00\x00\x00\x00\x00\x00\x3e\x40' d40='\x00\x00\x00\x00\x00\x00\x44\x40'
  npy_by_hand a.npy '<f8' '(4,)' "$d1$d2$d3$d4"
  npy_by_hand b.npy '<f8' '(4,)' "$d10$d20$d30$d40"
  npy_by_hand s3.npy '<f8' '(3,)' "$d1$d2$d3"
  npy_by_hand u8.npy '|u1' '(3,)' '\x01\x02\x03'
fi
printf 'this is not a .npy file\n' >bad.npy

# ---- reading results without NumPy: the dtype from the header, the values with od
descr_of() { head -c 200 "$1" | tr -d '\0' | grep -ao "'descr': '[^']*'" | cut -d"'" -f4; }
values_of() {  # FILE OD_TYPE
  local hlen
  hlen=$(od -An -tu2 -j8 -N2 "$1" | tr -d ' ')
  od -An -t "$2" -j $((10 + hlen)) -v "$1" | xargs
}
expect_values() {  # FILE DESCR OD_TYPE EXPECTED...
  local file=$1 descr=$2 type=$3
  shift 3
  [ -f "$file" ] || { fail "$file was not written"; return; }
  [ "$(descr_of "$file")" = "$descr" ] || fail "$file: dtype $(descr_of "$file"), expected $descr"
  local got
  got=$(values_of "$file" "$type")
  [ "$got" = "$*" ] || fail "$file: values '$got', expected '$*'"
}

# A command that must fail with exit code 2 and print CLASS (and PATTERN) on stderr.
expect_error() {  # CLASS PATTERN ARGS...
  local class=$1 pattern=$2
  shift 2
  local err rc
  err=$("$cupp" eval "$@" 2>&1 >/dev/null)
  rc=$?
  [ $rc -eq 2 ] || fail "cupp eval $*: exit $rc, expected 2 ($err)"
  grep -q "^$class: " <<<"$err" || fail "cupp eval $*: stderr lacks '$class: ': $err"
  grep -qF -- "$pattern" <<<"$err" || fail "cupp eval $*: stderr lacks '$pattern': $err"
}

# ---- results
"$cupp" eval 'a + 2*b' a=a.npy b=b.npy -o out.npy || fail "a + 2*b exited $?"
expect_values out.npy '<f8' f8 21 42 63 84
"$cupp" eval '-a * a + 1' a=a.npy -o neg.npy || fail "-a * a + 1 exited $?"
expect_values neg.npy '<f8' f8 0 -3 -8 -15
"$cupp" eval '(a > 2) | (b == 10)' a=a.npy b=b.npy -o cmp.npy || fail "comparisons exited $?"
expect_values cmp.npy '|b1' u1 1 0 1 1
"$cupp" eval 'a / 2 - 1' a=a.npy -o div.npy || fail "a / 2 - 1 exited $?"
expect_values div.npy '<f8' f8 -0.5 0 0.5 1
"$cupp" eval "add(a, b, dtype='float32')" a=a.npy b=b.npy -o f32.npy || fail "add(dtype=) exited $?"
expect_values f32.npy '<f4' f4 11 22 33 44
"$cupp" eval 'a + 1, a * 2' a=a.npy -o t1.npy -o t2.npy || fail "tuple result exited $?"
expect_values t1.npy '<f8' f8 2 3 4 5
expect_values t2.npy '<f8' f8 2 4 6 8
"$cupp" eval 'u + 3' u=u8.npy -o u3.npy || fail "u + 3 exited $?"
expect_values u3.npy '|u1' u1 4 5 6  # a weak Python int takes the array's dtype (NEP 50)
"$cupp" eval 'a ** 2' a=a.npy -o pow.npy || fail "a ** 2 exited $?"
expect_values pow.npy '<f8' f8 1 4 9 16
"$cupp" eval 'u ** 2' u=u8.npy -o upow.npy || fail "u ** 2 exited $?"
expect_values upow.npy '|u1' u1 1 4 9
"$cupp" eval '2*3 + 0.5' -o scalar.npy || fail "a scalar result exited $?"
expect_values scalar.npy '<f8' f8 6.5
"$cupp" eval '7 // -2' -o iscalar.npy || fail "an int scalar result exited $?"
expect_values iscalar.npy '<i8' d8 -4
"$cupp" eval 'unique(a % 2, axis=0, return_counts=True)' a=a.npy -o uqa.npy -o uqc.npy || fail "unique(axis=0) exited $?"
expect_values uqa.npy '<f8' f8 0 1
expect_values uqc.npy '<i8' d8 2 2
# subscripts: a view (basic items), advanced indexing (an index array, a mask), chained, a tuple
"$cupp" eval 'a[::-1]' a=a.npy -o sub_rev.npy || fail "a[::-1] exited $?"
expect_values sub_rev.npy '<f8' f8 4 3 2 1
"$cupp" eval 'a[u] + a[a > 2][::-1][0]' a=a.npy u=u8.npy -o sub_adv.npy || fail "a[u] + ... exited $?"
expect_values sub_adv.npy '<f8' f8 6 7 8
"$cupp" eval '-a[1:][None, ..., -1]**2' a=a.npy -o sub_neg.npy || fail "-a[...]**2 exited $?"
expect_values sub_neg.npy '<f8' f8 -16
"$cupp" eval 'divmod(a, 3)[1][1:3]' a=a.npy -o sub_tuple.npy || fail "divmod(a, 3)[1][1:3] exited $?"
expect_values sub_tuple.npy '<f8' f8 2 0

# ---- errors: class name on stderr, exit 2
expect_error ValueError "name 'c' is not defined" 'a + c' a=a.npy -o e.npy
expect_error ValueError "nosuchop" 'nosuchop(a)' a=a.npy -o e.npy
expect_error SyntaxError "(column 5)" 'a + * b' a=a.npy b=b.npy -o e.npy
err=$("$cupp" eval 'a + * b' a=a.npy b=b.npy -o e.npy 2>&1)
grep -qx '      ^' <<<"$err" || fail "no caret under column 5: $err"
expect_error SyntaxError "'(' was never closed" '(a + b' a=a.npy b=b.npy -o e.npy
expect_error FileNotFoundError "missing.npy" 'a + 1' a=missing.npy -o e.npy
expect_error ValueError "" 'a + 1' a=bad.npy -o e.npy
expect_error ValueError "" 'a + s' a=a.npy s=s3.npy -o e.npy          # shapes (4,) and (3,)
expect_error OverflowError "300" 'u + 300' u=u8.npy -o e.npy         # NEP 50, as NumPy 2
expect_error TypeError "" 'a + (1, 2)' a=a.npy -o e.npy
expect_error ValueError "out=" 'add(a, a, out=a)' a=a.npy -o e.npy
expect_error ZeroDivisionError "" '1 // 0' -o e.npy
expect_error IndexError "index 4 is out of bounds for axis 0 with size 4" 'a[4]' a=a.npy -o e.npy
expect_error IndexError "is out of bounds for axis 0 with size 4" 'a[u * 3]' a=a.npy u=u8.npy -o e.npy
expect_error IndexError "too many indices" 'a[0, 0]' a=a.npy -o e.npy
expect_error IndexError "only integers, slices" 'a[1.5]' a=a.npy -o e.npy
expect_error ValueError "slice step cannot be zero" 'a[::0]' a=a.npy -o e.npy
expect_error SyntaxError "'[' was never closed" 'a[1:' a=a.npy -o e.npy
[ ! -e e.npy ] || fail "a failed evaluation wrote its output"
"$cupp" eval 'a + 1' a=a.npy >/dev/null 2>&1
rc=$?; [ $rc -eq 2 ] || fail "missing -o: exit $rc, expected 2"
"$cupp" eval 'a + 1' a=a.npy -o x.npy -o y.npy >/dev/null 2>&1
rc=$?; [ $rc -eq 2 ] || fail "too many -o: exit $rc, expected 2"
"$cupp" eval 'a + 1, a' a=a.npy -o x.npy >/dev/null 2>&1
rc=$?; [ $rc -eq 2 ] || fail "too few -o for a tuple: exit $rc, expected 2"

# ---- --batch: per-line OK or ClassName: message, exit 0
cat >batch.txt <<'B'
# a comment, then a blank line

'a + 2*b' a=a.npy b=b.npy -o batch1.npy
"add(a, b, dtype='float32')" a=a.npy b=b.npy -o batch2.npy
'a + c' a=a.npy -o batch3.npy
'a + * b' a=a.npy b=b.npy -o batch4.npy
'u + 300' u=u8.npy -o batch5.npy
'a + s' a=a.npy s=s3.npy -o batch6.npy
'a + 1' a=a.npy
'a - 1' a=a.npy -o 'batch 8.npy'
'unterminated a=a.npy -o x.npy
B
out=$("$cupp" eval --batch batch.txt)
rc=$?
[ $rc -eq 0 ] || fail "--batch exited $rc"
expected='3: OK
4: OK
5: ValueError: name '"'c'"' is not defined (bind it with c=FILE.npy)
6: SyntaxError: invalid syntax: unexpected '"'*'"' (column 5)
7: OverflowError
8: ValueError
9: UsageError: missing -o OUT.npy (where to save the result)
10: OK
11: SyntaxError: unterminated single quote (column 1)'
while IFS= read -r want; do
  grep -qF -- "$want" <<<"$out" || fail "--batch output lacks '$want':
$out"
done <<<"$expected"
[ "$(wc -l <<<"$out")" -eq 9 ] || fail "--batch printed $(wc -l <<<"$out") lines, expected 9:
$out"
expect_values batch1.npy '<f8' f8 21 42 63 84
expect_values batch2.npy '<f4' f4 11 22 33 44
expect_values 'batch 8.npy' '<f8' f8 0 1 2 3
"$cupp" eval --batch no-such-batch.txt >/dev/null 2>&1
rc=$?; [ $rc -eq 2 ] || fail "--batch of a missing file: exit $rc, expected 2"
# --jobs N: the same lines in worker threads print the same results in the same order.
rm -f batch1.npy batch2.npy 'batch 8.npy'
out4=$("$cupp" eval --batch batch.txt --jobs 4)
rc=$?
[ $rc -eq 0 ] || fail "--batch --jobs 4 exited $rc"
[ "$out4" = "$out" ] || fail "--batch --jobs 4 printed:
$out4
while --jobs 1 printed:
$out"
expect_values batch1.npy '<f8' f8 21 42 63 84
expect_values 'batch 8.npy' '<f8' f8 0 1 2 3
"$cupp" eval --batch batch.txt --jobs 0 >/dev/null 2>&1
rc=$?; [ $rc -eq 2 ] || fail "--jobs 0: exit $rc, expected 2"
# --parse-only: syntax, callees and input files, nothing run.
out=$("$cupp" eval --batch batch.txt --parse-only)
grep -qF "6: SyntaxError" <<<"$out" && grep -qF "9: UsageError" <<<"$out" && grep -qF "5: OK" <<<"$out" ||
  fail "--parse-only printed:
$out"
# --parse-only knows every ufunc method (outer, reduce, reduceat, accumulate) and no other.
printf '%s\n' 'add.accumulate(a) a=a.npy -o m1.npy' '"add.reduceat(a, i)" a=a.npy i=a.npy -o m2.npy' \
  'add.bogus(a) a=a.npy -o m3.npy' >methods.txt
out=$("$cupp" eval --batch methods.txt --parse-only)
grep -qF "1: OK" <<<"$out" && grep -qF "2: OK" <<<"$out" && grep -qF "3: ValueError: cupp eval has no function 'add.bogus'" <<<"$out" ||
  fail "--parse-only of ufunc methods printed:
$out"
# view(a, dtype): a.view(dtype), here there and back.
"$cupp" eval "view(view(a, 'int64'), dtype='float64')" a=a.npy -o view.npy 2>&1 || fail "view() failed"
expect_values view.npy '<f8' f8 1 2 3 4

# ---- --ops: op specs loaded at run time (cupp::load_ops), called by name; spec errors exit 2
cat >twice_plus.yaml <<'YAML'
name: twice_plus
doc: 2*x + y, element-wise.
nin: 2
nout: 1
loops:
  - sig: float64, float64 -> float64
    body: out0 = 2.0 * in0 + in1;
YAML
"$cupp" eval --ops twice_plus.yaml 'twice_plus(a, b)' a=a.npy b=b.npy -o ops.npy || fail "--ops exited $?"
expect_values ops.npy '<f8' f8 12 24 36 48
printf '"twice_plus(a, 1.0)" a=a.npy -o ops_batch.npy\n' >ops_batch.txt
out=$("$cupp" eval --ops=twice_plus.yaml --batch ops_batch.txt)
[ "$out" = "1: OK" ] || fail "--ops with --batch printed '$out'"
expect_values ops_batch.npy '<f8' f8 3 5 7 9
printf 'name: bad_spec\ndoc: x\nnin: 1\nnout: 1\nloops:\n  - sig: float128 -> float128\n    body: out0 = in0;\n' >bad_spec.yaml
err=$("$cupp" eval --ops bad_spec.yaml 'a' a=a.npy -o never.npy 2>&1)
rc=$?
[ $rc -eq 2 ] || fail "--ops with a bad spec: exit $rc, expected 2"
grep -qF "SpecError: bad_spec.yaml:6: loop 'float128 -> float128': undefined dtype" <<<"$err" ||
  fail "--ops with a bad spec printed '$err'"
[ ! -f never.npy ] || fail "--ops with a bad spec wrote its output"

# ---- reductions (a = [1, 2, 3, 4] as float64)
"$cupp" eval 'sum(a)' a=a.npy -o red_sum.npy || fail "sum(a) exited $?"
expect_values red_sum.npy '<f8' f8 10
"$cupp" eval 'maximum.reduce(a, 0, keepdims=True)' a=a.npy -o red_max.npy || fail "maximum.reduce exited $?"
expect_values red_max.npy '<f8' f8 4
"$cupp" eval "mean(a, dtype='float32')" a=a.npy -o red_mean.npy || fail "mean exited $?"
expect_values red_mean.npy '<f4' f4 2.5
expect_error AxisError "axis 1 is out of bounds for array of dimension 1" 'sum(a, axis=1)' a=a.npy -o never.npy
# (keepdims=2 is True, as NumPy's bool conversion reads it; a float axis is NumPy's TypeError)
expect_error TypeError "'axis' must be an integer" 'sum(a, axis=1.5)' a=a.npy -o never.npy

# ---- creation routines (docs/api/creation.md)
"$cupp" eval 'arange(1, 10, 3)' -o cr_arange.npy || fail "arange exited $?"
expect_values cr_arange.npy '<i8' d8 1 4 7
"$cupp" eval "linspace(0, 1, 5, dtype='float32')" -o cr_lin.npy || fail "linspace exited $?"
expect_values cr_lin.npy '<f4' f4 0 0.25 0.5 0.75 1
"$cupp" eval 'linspace(0, 1, 3, retstep=True)' -o cr_y.npy -o cr_step.npy || fail "linspace retstep exited $?"
expect_values cr_step.npy '<f8' f8 0.5
"$cupp" eval 'eye(2, k=1)' -o cr_eye.npy || fail "eye exited $?"
expect_values cr_eye.npy '<f8' f8 0 1 0 0
"$cupp" eval 'triu(full((2, 2), 5))' -o cr_triu.npy || fail "triu exited $?"
expect_values cr_triu.npy '<i8' d8 5 5 0 5
expect_error ValueError "arange: step must not be zero" 'arange(0, 5, 0)' -o never.npy
expect_error TypeError "unexpected keyword argument 'stop'" 'eye(2, stop=3)' -o never.npy

# ---- sparse values (tools/cupp/eval/sparse.cpp): d is (4, 5) with 6 stored values, x = 1..5, y = 1..4
"$cupp" eval "where(reshape(arange(20), (4, 5)) % 3 == 0, reshape(arange(20, dtype='float32'), (4, 5)), 0)" -o sd.npy ||
  fail "making sd.npy exited $?"
"$cupp" eval "arange(5, dtype='float32') + 1" -o sx.npy || fail "making sx.npy exited $?"
"$cupp" eval "arange(4, dtype='float32') + 1" -o sy.npy || fail "making sy.npy exited $?"
"$cupp" eval 'sparse.csr_matrix(d) @ x' d=sd.npy x=sx.npy -o sp_mv.npy || fail "csr_matrix(d) @ x exited $?"
expect_values sp_mv.npy '<f4' f4 12 57 36 87
"$cupp" eval 'y @ sparse.csc_matrix(d)' d=sd.npy y=sy.npy -o sp_vm.npy || fail "y @ csc_matrix(d) exited $?"
expect_values sp_vm.npy '<f4' f4 60 12 36 75 18
"$cupp" eval 'matmul(sparse.coo_array(d), x)' d=sd.npy x=sx.npy -o sp_mm.npy || fail "matmul(coo_array(d), x) exited $?"
expect_values sp_mm.npy '<f4' f4 12 57 36 87
for cls in csr_matrix csr_array csc_matrix csc_array coo_matrix coo_array; do  # against the dense products
  "$cupp" eval "array_equal(sparse.$cls(d) @ transpose(d), d @ transpose(d)), array_equal(reshape(y, (1, 4)) @ sparse.$cls(d), reshape(y, (1, 4)) @ d)" \
    d=sd.npy y=sy.npy -o sp_eq1.npy -o sp_eq2.npy || fail "$cls products exited $?"
  expect_values sp_eq1.npy '|b1' u1 1
  expect_values sp_eq2.npy '|b1' u1 1
done
"$cupp" eval 'sparse.csr_matrix(d) @ sparse.csr_matrix(transpose(d))' d=sd.npy -o sp_prod.npz || fail "sparse @ sparse exited $?"
[ "$(head -c 2 sp_prod.npz 2>/dev/null)" = "PK" ] || fail "sp_prod.npz is not a .npz (zip) file"
"$cupp" eval 'array_equal(sparse.toarray(A), d @ transpose(d)), sparse.nnz(A)' A=sp_prod.npz d=sd.npy -o sp_back.npy -o sp_nnz.npy ||
  fail "A=sp_prod.npz exited $?"
expect_values sp_back.npy '|b1' u1 1
expect_values sp_nnz.npy '<i8' d8 6
out=$("$cupp" eval 'sparse.csr_matrix(d)' d=sd.npy -o -)
grep -qF "<Compressed Sparse Row sparse matrix of dtype 'float32'" <<<"$out" &&
  grep -qF "with 6 stored elements and shape (4, 5)>" <<<"$out" || fail "-o - printed '$out'"
"$cupp" eval "sparse.nnz(sparse.random(100, 50, density=0.1, format='csr', dtype='float32', random_state=0))" -o sp_rnnz.npy ||
  fail "sparse.random exited $?"
expect_values sp_rnnz.npy '<i8' d8 500
"$cupp" eval "array_equal(sparse.eye(5) @ x, float64(x)), array_equal(sparse.toarray(sparse.diags((1.0, 2.0), (0, 1), shape=(3, 3))), eye(3) + 2 * eye(3, k=1))" \
  x=sx.npy -o sp_eye.npy -o sp_diags.npy || fail "sparse.eye / sparse.diags exited $?"
expect_values sp_eye.npy '|b1' u1 1
expect_values sp_diags.npy '|b1' u1 1
expect_error ValueError "matmul: dimension mismatch with signature (n,k=5),(k=4,1?)->(n,1?)" 'sparse.csr_matrix(d) @ y' d=sd.npy y=sy.npy -o never.npy
expect_error ValueError "matmul: dimension mismatch with signature (n,k=4),(k=5,1?)->(n,1?)" 'x @ sparse.csr_matrix(d)' d=sd.npy x=sx.npy -o never.npy
expect_error ValueError "Scalar operands are not allowed, use '*' instead" 'sparse.csr_matrix(d) @ 2' d=sd.npy -o never.npy
expect_error TypeError "saved as SciPy's .npz" 'sparse.csr_matrix(d)' d=sd.npy -o never.npy
expect_error TypeError "saved as SciPy's .npz" 'd + 1, sparse.csr_matrix(d)' d=sd.npy -o first.npy -o never.npy
[ ! -f never.npy ] && [ ! -f first.npy ] || fail "a failed sparse evaluation wrote an output"
printf '%s\n' "'sparse.csr_matrix(d)' d=sd.npy -o -" >sp_batch.txt
out=$("$cupp" eval --batch sp_batch.txt)
[ "$out" = "1: UsageError: -o - (print the result) is not taken in --batch" ] || fail "--batch with -o - printed '$out'"
# SciPy reads what save_npz wrote, and cupp the file SciPy writes (where SciPy is installed)
if python3 -c "import scipy.sparse" 2>/dev/null; then
  python3 - <<'PY' || fail "SciPy and cupp eval disagree on .npz files"
import numpy as np, scipy.sparse as sp, subprocess, sys
d = np.load("sd.npy")
a = sp.load_npz("sp_prod.npz")
assert a.format == "csr" and isinstance(a, sp.csr_matrix), type(a)
assert np.array_equal(a.toarray(), d @ d.T)
sp.save_npz("sp_scipy.npz", sp.csc_array(d))
PY
  "$cupp" eval 'sparse.toarray(A) @ x' A=sp_scipy.npz x=sx.npy -o sp_scipy_mv.npy || fail "A=sp_scipy.npz exited $?"
  expect_values sp_scipy_mv.npy '<f4' f4 12 57 36 87
fi

if [ $failures -ne 0 ]; then
  echo "$failures check(s) failed (work dir: $work)" >&2
  exit 1
fi
echo "ok: cupp eval end to end"
