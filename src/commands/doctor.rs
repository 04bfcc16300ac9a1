//! `referee doctor`: what this machine supports, in words.

use std::path::Path;
use std::process::ExitCode;

use super::Failure;
use referee::case::{pin, Reference, Suite};
use referee::{oracle, run};

/// Prints how programs will be watched and contained here, and whether
/// the suite in `cases` can be graded here.
pub fn run(cases: Option<&Path>) -> Result<ExitCode, Failure> {
    let sandbox = referee::submission::sandbox();
    println!("referee {} on this machine:", env!("CARGO_PKG_VERSION"));
    println!();
    // The same proof every grading command makes first: a known program
    // run in a real slot must come out as a person would see it.
    let proof = run::proof::prove();
    match &proof {
        Ok(how) => {
            println!("  waiting for input   {}", run::proof::describe(*how));
            for (better, why) in run::proof::passed_over() {
                println!(
                    "                      (not {}: {why})",
                    run::proof::describe(better)
                );
            }
        }
        Err(unproven) => {
            println!("  waiting for input   NOT WORKING: no way of telling proved right here:");
            for (how, why) in &unproven.tried {
                println!(
                    "                      {}: {why}",
                    run::proof::describe(*how)
                );
            }
        }
    }
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
    let works = match (&proof, sandbox.missing()) {
        (Err(unproven), _) => {
            println!("Grading does NOT work here: every grade would be wrong, so referee refuses to grade.");
            let advice = unproven.to_string();
            if let Some(what_to_do) = advice.lines().find(|l| l.starts_with("What to do")) {
                println!("{what_to_do}");
            }
            false
        }
        (Ok(_), None) => {
            println!("Grading works, and every protection is on.");
            true
        }
        (Ok(_), Some(_)) => {
            println!("Grading works; the protections marked OFF are not available here.");
            true
        }
    };
    if !works {
        return Ok(ExitCode::from(1));
    }
    match cases {
        Some(dir) => suite(dir),
        None => Ok(ExitCode::SUCCESS),
    }
}

/// Whether this machine can grade the suite in `dir`: its reference
/// builds and runs, every case has a pin of its input, its generator
/// runs. Exit 1 when something stands in the way.
fn suite(dir: &Path) -> Result<ExitCode, Failure> {
    let suite = super::load_suite(dir, None)?;
    println!();
    println!("The suite {} ({}):", dir.display(), suite.name);
    let mut trouble = false;
    let mut say = |what: &str, fine: bool, how: String| {
        trouble |= !fine;
        let mark = if fine { "ok" } else { "NO" };
        println!("  {what:<19} {mark}: {how}");
    };
    match &suite.reference {
        Reference::Game(game) => say("reference", true, format!("the built-in {game}")),
        Reference::Program(program) if !program.exists() => say(
            "reference",
            missing_pins(&suite).is_empty(),
            format!(
                "{} is not here; grading reads the pinned transcripts",
                program.display()
            ),
        ),
        Reference::Program(program) => match oracle::program(&suite, program, "doctor") {
            Ok(_) => say("reference", true, format!("{} builds", program.display())),
            Err(e) => say("reference", false, e.to_string()),
        },
    }
    let missing = missing_pins(&suite);
    let count = suite.cases.len();
    if missing.is_empty() {
        say(
            "pins",
            true,
            format!("all {count} cases pinned for their input"),
        );
    } else {
        let can_make = oracle::available(&suite);
        let how = format!(
            "{} of {count} cases have no pin of their input ({}){}",
            missing.len(),
            missing.join(", "),
            if can_make {
                "; the reference runs for them (`referee cases update` pins them)"
            } else {
                ", and the reference is not here to run"
            }
        );
        say("pins", can_make, how);
    }
    for file in &suite.support {
        say("support", true, file.place.display().to_string());
    }
    if let Some(generator) = &suite.generator {
        match referee::explore::generated::Generator::of(&suite) {
            Ok(_) => say("generator", true, format!("{} runs", generator.display())),
            Err(e) => say("generator", false, e.to_string()),
        }
    }
    Ok(if trouble {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The whole-game cases with no pin of their input.
fn missing_pins(suite: &Suite) -> Vec<String> {
    suite
        .cases
        .iter()
        .filter(|c| c.call.is_none())
        .filter(|c| !matches!(pin::read(c), Ok(Some(text)) if pin::parse_case(&text, c).is_ok()))
        .map(|c| c.name.clone())
        .collect()
}
