#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's
# image. It installs what referee needs (C and C++ compilers, Python 3),
# then referee itself: the Debian package at the root of the zip when
# there is one (`referee_<version>_amd64.deb`, from a release or
# packaging/dist.sh: no Rust needed), else the prebuilt `referee` at the
# root of the zip when there is one, else built from the source in the zip,
# which Gradescope unpacks in /autograder/source. Last it proves that
# this image can grade (`referee doctor`) and checks the cases, so that a
# broken image fails its build, not every student's submission. See
# gradescope/README.md.
set -euxo pipefail
export DEBIAN_FRONTEND=noninteractive
cd /autograder/source

if ! command -v gcc >/dev/null || ! command -v g++ >/dev/null || ! command -v python3 >/dev/null; then
    apt-get update
    apt-get install -y --no-install-recommends gcc g++ libc6-dev python3 curl ca-certificates
fi

debs=(referee_*_amd64.deb)
if [ -f "${debs[0]}" ]; then
    # The package: apt installs what it depends on (gcc, g++, python3).
    apt-get install -y --no-install-recommends "./${debs[0]}"
elif [ -f referee ]; then
    # A prebuilt referee (zip -j autograder.zip target/release/referee).
    install -m 0755 referee /usr/local/bin/referee
else
    # Ubuntu's own Rust is older than referee needs: install it with rustup.
    if ! command -v cargo >/dev/null 2>&1; then
        command -v curl >/dev/null || apt-get install -y --no-install-recommends curl ca-certificates
        curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs |
            sh -s -- -y --profile minimal --default-toolchain stable
    fi
    export PATH="$HOME/.cargo/bin:$PATH"
    cargo build --release --locked --bin referee
    install -m 0755 target/release/referee /usr/local/bin/referee
fi

# A machine where referee cannot run programs as a person would (it says
# why) must not grade: doctor exits 1 there, and the build fails.
referee doctor

# A broken case folder fails the build here, not on the first submission:
# the built-in games' suites, and any suite of your own in the zip.
if [ -d cases ]; then
    referee cases validate cases/
fi
for suite in */suite.yaml; do
    [ -e "$suite" ] || continue
    referee cases validate "$(dirname "$suite")"
done
