#!/usr/bin/env bash
# The baseline the benchmark measures referee against: a grading script of
# the kind TAs write by hand. For each program and each case, run it with
# `timeout`, the case's input redirected from a file, and `diff` its
# output against the expected output.
#
# usage: baseline.sh PROGRAMS_FILE CASES_DIR JOBS
#   PROGRAMS_FILE  one command per line (a program, or `python3 file.py`)
#   CASES_DIR      NAME.in (input) and NAME.out (expected output) per case
#   JOBS           programs graded at once (xargs -P)
set -u
programs=$1
cases=$2
jobs=$3

grade_one() {
  local program=$1 cases=$2 score=0 total=0
  local actual
  actual=$(mktemp)
  for input in "$cases"/*.in; do
    total=$((total + 1))
    # shellcheck disable=SC2086
    timeout 10 $program < "$input" > "$actual" 2>&1
    if diff -q "$actual" "${input%.in}.out" > /dev/null; then
      score=$((score + 1))
    fi
  done
  rm -f "$actual"
  echo "$program: $score/$total"
}
export -f grade_one

xargs -P "$jobs" -I{} bash -c 'grade_one "$1" "$2"' _ {} "$cases" < "$programs"
