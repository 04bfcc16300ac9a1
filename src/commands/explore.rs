//! `referee explore <submission>`: generated games against the reference
//! until one is played differently; that game, shrunk to a minimal one,
//! explained and saved as a case. Also the exploring part of `referee
//! check --explore`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::Failure;
use crate::cli::ExploreArgs;
use referee::case::Suite;
use referee::explain::{found as show, Style};
use referee::explore::{self, save, Budget, Report};
use referee::submission::{self, BuildError, Built, Flags, Submission};

/// Explores one submission; exit 1 when a game is played differently.
pub fn run(args: &ExploreArgs) -> Result<ExitCode, Failure> {
    let style = Style::for_stdout(args.color);
    let submission = super::locate(&args.submission, &args.cases)?;
    let suite = super::find_suite(&args.cases, args.game.map(|g| g.0), || {
        Ok(referee::games::infer_game(&submission)?)
    })?;
    super::machine_ready()?;
    let built = build(
        &submission,
        &suite,
        &super::flags(&args.cflags, &args.cxxflags),
    )?;
    let defaults = explore::Settings::default();
    let settings = explore::Settings {
        seed: args.seed,
        budget: match (args.time, args.games) {
            (Some(time), _) => Budget::Time(time),
            (None, games) => Budget::Games(games.unwrap_or(explore::DEFAULT_GAMES)),
        },
        jobs: args.jobs.unwrap_or(defaults.jobs),
        ..defaults
    };
    println!(
        "{} {} ({}, seed {}, {})",
        style.strong("referee explore"),
        args.submission.display(),
        suite.name,
        settings.seed,
        budget_words(settings.budget)
    );
    let report = explore::explore(&built, &suite, &settings)?;
    let save = args
        .save
        .clone()
        .unwrap_or_else(|| PathBuf::from("explored").join(&suite.name));
    let found = show_report(&report, &suite, &save, &args.submission, &style)?;
    Ok(if found {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// "up to 2000 games", "games for 30 s".
pub(super) fn budget_words(budget: Budget) -> String {
    match budget {
        Budget::Games(n) => format!("up to {n} game{}", if n == 1 { "" } else { "s" }),
        Budget::Time(time) => format!("games for {:.0} s", time.as_secs_f64()),
    }
}

/// Builds a submission for exploring with the flags given, else the
/// suite's. A program that does not compile cannot be explored: that is
/// said with the compiler's messages, as a failure to explore.
pub(super) fn build(
    submission: &Submission,
    suite: &Suite,
    flags: &Flags,
) -> Result<Built, Failure> {
    let flags = flags.over(&suite.compile);
    submission::build(submission, &flags, &suite.support).map_err(|e| {
        Failure::from(match e {
            BuildError::Compile(messages) => format!(
                "{} does not compile, so it cannot play any game; the compiler said:\n{}",
                submission.file.display(),
                referee::results::compiler_messages(&messages)
            ),
            other => other.to_string(),
        })
    })
}

/// Prints what exploring found; saves a found game as a case in `save`.
/// True when a game was played differently.
pub(super) fn show_report(
    report: &Report,
    suite: &Suite,
    save: &Path,
    program: &Path,
    style: &Style,
) -> Result<bool, Failure> {
    let Some(found) = &report.found else {
        println!(
            "{} {} game{} explored in {:.1} s: each played as the reference plays it.",
            style.good("✓"),
            report.games,
            if report.games == 1 { "" } else { "s" },
            report.elapsed.as_secs_f64()
        );
        return Ok(false);
    };
    println!(
        "{} Game {} of seed {} is played differently from the reference: {}.",
        style.bad("✗"),
        found.index + 1,
        report.seed,
        found.outcome.judgement.verdict.label()
    );
    println!(
        "  {}",
        style.dim(&format!(
            "Generated: {}. Shrunk to: {} ({} runs, {:.1} s in all).",
            found.generated,
            found.described,
            found.shrink_runs,
            report.elapsed.as_secs_f64()
        ))
    );
    print!("{}", show::game_text(&found.task));
    print!("{}", show::explanation(found, suite, style));
    let saved = save::save(found, suite, report.seed, save)?;
    println!(
        "Saved as {}, with its pinned transcript{}.",
        saved.file.display(),
        if saved.new_folder {
            " (a new case folder, with the explored suite's settings)"
        } else {
            ""
        }
    );
    println!(
        "Replay it: referee check {} --cases {}",
        referee::text::visible::safe(program.as_os_str().as_encoded_bytes()),
        saved.folder.display()
    );
    Ok(true)
}
