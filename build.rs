//! Rebuilds referee when a shipped case changes: the suites in `cases/`
//! are built into the binary (see `src/case/builtin.rs`).

fn main() {
    println!("cargo:rerun-if-changed=cases");
}
