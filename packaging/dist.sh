#!/usr/bin/env bash
# Makes every artifact of a release in target/dist/:
#
#   referee-<version>-x86_64-linux.tar.gz (+ .sha256)
#       the binary, its manual pages, bash, zsh and fish completions, the
#       README and the licences; the binary runs on every glibc Linux from
#       glibc 2.31 on (Debian 11, Ubuntu 20.04 and later): it is linked
#       for that glibc by cargo-zigbuild, with Zig as the linker;
#   referee_<version>_amd64.deb (+ .sha256)
#       the same files in their Debian places, built by cargo-deb from the
#       same binary; `apt install ./referee_<version>_amd64.deb`.
#
# Needs: cargo (Rust), cargo-zigbuild and Zig (`pip install ziglang
# cargo-zigbuild`), cargo-deb (`cargo install cargo-deb`). Everything comes
# from the package registries; nothing else is fetched.
#
#   packaging/dist.sh            # both artifacts
#   REFEREE_GLIBC=2.28 packaging/dist.sh   # link for another glibc
set -euo pipefail
cd "$(dirname "$0")/.."

glibc="${REFEREE_GLIBC:-2.31}"
target="x86_64-unknown-linux-gnu"
dist="target/dist"
stage="$dist/stage"

if ! command -v cargo >/dev/null 2>&1; then
    echo "packaging/dist.sh: cargo is missing: install Rust with rustup (https://rustup.rs)" >&2
    exit 1
fi
if ! command -v cargo-zigbuild >/dev/null 2>&1; then
    echo "packaging/dist.sh: cargo-zigbuild is missing: pip install ziglang cargo-zigbuild" >&2
    exit 1
fi
if ! command -v zig >/dev/null 2>&1 && ! python3 -c 'import ziglang' >/dev/null 2>&1; then
    echo "packaging/dist.sh: Zig is missing: pip install ziglang" >&2
    exit 1
fi
if ! command -v cargo-deb >/dev/null 2>&1; then
    echo "packaging/dist.sh: cargo-deb is missing: cargo install cargo-deb" >&2
    exit 1
fi

version="$(cargo metadata --no-deps --format-version 1 |
    python3 -c 'import json, sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "referee"))')"
# The commit `referee --version` names (build.rs reads it).
REFEREE_COMMIT="$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
export REFEREE_COMMIT

echo "packaging referee $version ($REFEREE_COMMIT) for glibc $glibc and later"
cargo zigbuild --release --locked --bin referee --target "$target.$glibc"
binary="${CARGO_TARGET_DIR:-target}/$target/release/referee"

rm -rf "$dist"
mkdir -p "$stage/man" "$stage/complete"
# Not stripped: its line tables name the line of a panic's backtrace.
cp "$binary" "$stage/referee"
"$stage/referee" man "$stage/man" >/dev/null
"$stage/referee" completions bash >"$stage/complete/referee.bash"
"$stage/referee" completions zsh >"$stage/complete/_referee"
"$stage/referee" completions fish >"$stage/complete/referee.fish"

# The archive: pages as they are (man reads them from anywhere with -l).
name="referee-$version-x86_64-linux"
folder="$dist/$name"
mkdir -p "$folder"
cp -r "$stage/referee" "$stage/man" "$stage/complete" README.md LICENSE-MIT LICENSE-APACHE "$folder/"
tar -C "$dist" --owner=0 --group=0 --sort=name -czf "$dist/$name.tar.gz" "$name"
rm -rf "$folder"

# The package: pages compressed, as Debian keeps them.
gzip -9n "$stage"/man/*.1
env -u CARGO_TARGET_DIR cargo deb --no-build --no-strip --target "$target" --output "$dist/referee_${version}_amd64.deb"

(cd "$dist" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256" &&
    sha256sum "referee_${version}_amd64.deb" >"referee_${version}_amd64.deb.sha256")
rm -rf "$stage"
ls -l "$dist"
