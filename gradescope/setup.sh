#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's
# image: it installs what referee needs (C and C++ compilers, Python 3,
# Rust) and builds referee from the source in the autograder zip, which
# Gradescope unpacks in /autograder/source. See gradescope/README.md.
set -euxo pipefail
export DEBIAN_FRONTEND=noninteractive

apt-get update
apt-get install -y --no-install-recommends gcc g++ libc6-dev python3 curl ca-certificates

# Ubuntu's own Rust is older than referee needs: install it with rustup.
if ! command -v cargo >/dev/null 2>&1; then
    curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs |
        sh -s -- -y --profile minimal --default-toolchain stable
fi
export PATH="$HOME/.cargo/bin:$PATH"

cd /autograder/source
cargo build --release --locked
install -m 0755 target/release/referee /usr/local/bin/referee

# A broken case folder fails the build here, not on the first submission:
# the built-in games' suites, and any suite of your own in the zip.
referee cases validate cases/
for suite in */suite.yaml; do
    [ -e "$suite" ] && referee cases validate "$(dirname "$suite")"
done
