//! `referee completions` and `referee man`: the conventions of a
//! command-line tool, generated from the same clap definition the command
//! line is parsed with, so they cannot drift from it.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use clap::CommandFactory;
use clap_complete::Shell;

use super::Failure;
use crate::cli::Cli;

/// Prints the completion script for `shell` on stdout.
pub fn completions(shell: Shell) -> Result<ExitCode, Failure> {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "referee", &mut script);
    std::io::stdout()
        .write_all(&script)
        .map_err(|e| format!("cannot print the completion script: {e}"))?;
    Ok(ExitCode::SUCCESS)
}

/// Writes `referee.1` and a page per command (`referee-grade.1`,
/// `referee-cases-update.1`, ...) into `dir`, and names each.
pub fn pages(dir: &Path) -> Result<ExitCode, Failure> {
    fs::create_dir_all(dir).map_err(|e| {
        format!(
            "{}: cannot make the folder: {e}; give a folder you can write to",
            dir.display()
        )
    })?;
    let mut command = Cli::command().disable_help_subcommand(true);
    command.build();
    clap_mangen::generate_to(command.clone(), dir)
        .map_err(|e| format!("{}: cannot write the manual pages: {e}", dir.display()))?;
    let mut written = Vec::new();
    page_names(&command, &mut written);
    written.sort();
    println!(
        "{} manual pages in {}: {}",
        written.len(),
        dir.display(),
        written.join(", ")
    );
    Ok(ExitCode::SUCCESS)
}

/// The file name of each page `clap_mangen::generate_to` writes: the
/// command's and, in turn, each visible subcommand's.
fn page_names(command: &clap::Command, names: &mut Vec<String>) {
    let name = command.get_display_name().unwrap_or(command.get_name());
    names.push(format!("{name}.1"));
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        page_names(sub, names);
    }
}
