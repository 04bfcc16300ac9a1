//! The `referee` command: a thin shell over the `referee` library.

use std::process::ExitCode;

fn main() -> ExitCode {
    referee::commands::main()
}
