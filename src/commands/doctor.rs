//! `referee doctor`: what this machine supports, in words.

use std::process::ExitCode;

use super::Failure;
use referee::run;

/// Prints how programs will be watched and contained here.
pub fn run() -> Result<ExitCode, Failure> {
    let sandbox = referee::submission::sandbox();
    println!("referee {} on this machine:", env!("CARGO_PKG_VERSION"));
    println!();
    println!("  waiting for input   {}", run::detection_method());
    for protection in sandbox.protections() {
        match (&protection.on, &protection.off) {
            (Some(how), _) => println!("  {:<19} on: {how}", protection.what),
            (None, Some(why)) => println!("  {:<19} OFF: {why}", protection.what),
            (None, None) => {}
        }
    }
    let games: Vec<String> = referee::games::ALL
        .iter()
        .map(|s| format!("{} ({})", s.game.id(), s.language.taken()))
        .collect();
    println!("  {:<19} {}", "games", games.join(", "));
    println!();
    match sandbox.missing() {
        None => println!("Every protection is on."),
        Some(_) => println!("Grading works; the protections marked OFF are not available here."),
    }
    Ok(ExitCode::SUCCESS)
}
