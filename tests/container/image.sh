#!/usr/bin/env bash
# Makes the Docker image the container tests (tests/container.rs) grade
# in, as a course's autograder image would be: a Debian bookworm root with
# gcc, g++, Python 3 and a JDK, made with debootstrap from Debian's
# packages and imported (no image registry is needed). Starts Debian's Docker engine
# first when none answers. Idempotent: an image already made is kept.
set -euo pipefail
image="${REFEREE_TEST_IMAGE:-referee-test:bookworm-jdk}"

if ! docker info >/dev/null 2>&1; then
    if ! command -v dockerd >/dev/null 2>&1; then
        echo "no Docker engine: apt-get install docker.io debootstrap (as root)" >&2
        exit 1
    fi
    dockerd >/tmp/referee-dockerd.log 2>&1 &
    for _ in $(seq 1 60); do
        docker info >/dev/null 2>&1 && break
        sleep 1
    done
    docker info >/dev/null
fi

if docker image inspect "$image" >/dev/null 2>&1; then
    exit 0
fi
root="$(mktemp -d /var/tmp/referee-image.XXXXXX)"
trap 'rm -rf "$root"' EXIT
debootstrap --variant=minbase --include=gcc,g++,libc6-dev,python3,zip,unzip,openjdk-17-jdk-headless \
    bookworm "$root" http://deb.debian.org/debian >/dev/null
tar -C "$root" -c . | docker import - "$image" >/dev/null
echo "made $image"
