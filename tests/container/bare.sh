#!/usr/bin/env bash
# Makes a bare Debian image for tests/dist.rs, as a course server or a
# new autograder image would be: debootstrap's minimal base with only
# gcc, g++, the C library's headers, Python 3 and man (no Rust), for the
# release given (bookworm: Debian 12; bullseye: Debian 11), imported as
# referee-bare:<release>. Starts Debian's Docker engine first (see
# image.sh). Idempotent: an image already made is kept.
set -euo pipefail
release="${1:?which Debian release: bookworm or bullseye}"
image="referee-bare:$release"
bash "$(dirname "$0")/image.sh" >/dev/null
if docker image inspect "$image" >/dev/null 2>&1; then
    exit 0
fi
root="$(mktemp -d /var/tmp/referee-bare.XXXXXX)"
trap 'rm -rf "$root"' EXIT
debootstrap --variant=minbase --include=gcc,g++,libc6-dev,python3,man-db \
    "$release" "$root" http://deb.debian.org/debian >/dev/null
tar -C "$root" -c . | docker import - "$image" >/dev/null
echo "made $image"
