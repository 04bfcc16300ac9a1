#!/usr/bin/env bash
# A TA's grading loop, what the job benchmark measures referee against:
# for each program (compiled first with `gcc -O1` in `compile` mode), each
# case's input redirected from a file under `timeout`, and `diff -q`
# against the expected output; two programs at a time.
#
# usage: ta-loop.sh PROGRAMS_FILE CASES_DIR JOBS compile|run
#   PROGRAMS_FILE  one program per line: a .c source (compile) or an executable (run)
#   CASES_DIR      NAME.in (input) and NAME.out (expected output) per case
set -u
programs=$1
cases=$2
jobs=$3
mode=$4

grade_one() {
  local program=$1 cases=$2 mode=$3 score=0 total=0 actual exe
  actual=$(mktemp)
  exe=$program
  if [ "$mode" = compile ]; then
    exe=$(mktemp)
    gcc -O1 -o "$exe" "$program" -lm 2> /dev/null || { echo "$program: does not compile"; return; }
  fi
  for input in "$cases"/*.in; do
    total=$((total + 1))
    timeout 10 "$exe" < "$input" > "$actual" 2>&1
    if diff -q "$actual" "${input%.in}.out" > /dev/null; then
      score=$((score + 1))
    fi
  done
  rm -f "$actual"
  [ "$mode" = compile ] && rm -f "$exe"
  echo "$program: $score/$total"
}
export -f grade_one

xargs -P "$jobs" -I{} bash -c 'grade_one "$1" "$2" "$3"' _ {} "$cases" "$mode" < "$programs"
