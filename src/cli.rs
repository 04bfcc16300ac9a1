//! The command-line interface: what each command accepts. The work is in
//! [`crate::commands`].

use std::path::PathBuf;

use clap::builder::PossibleValue;
use clap::{Args, Parser, Subcommand, ValueEnum};
use reference::Game;

use crate::explain::ColorChoice;
use crate::run::Feed;

/// Grade console-game programming assignments against a reference
/// implementation.
#[derive(Debug, Parser)]
#[command(name = "referee", version, about, long_about = None)]
#[command(after_help = games_help())]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play the reference implementation of a game on stdin/stdout, exactly
    /// as a student's program is run: in a terminal, or fed by a pipe.
    Play {
        /// The game to play.
        game: GameArg,
    },
    /// Check one submission against the public cases: a line per case,
    /// then the first failure explained. Exits 0 when every case passes.
    Check(CheckArgs),
    /// Grade a class: every submission on every case, in parallel, with a
    /// gradebook, feedback and machine-readable results in --out.
    Grade(GradeArgs),
    /// Grade one submission inside Gradescope's autograder (every case,
    /// hidden ones too) and write Gradescope's results.json.
    Gradescope(GradescopeArgs),
    /// Combine the --out folders of shards into one set of reports.
    Merge {
        /// Where to write the combined reports.
        #[arg(long)]
        out: PathBuf,
        /// The shards' --out folders.
        #[arg(required = true)]
        shards: Vec<PathBuf>,
        /// Replace the reports of another merge or run in --out.
        #[arg(long)]
        force: bool,
    },
    /// Say which protections and ways of watching programs this machine
    /// supports.
    Doctor,
    /// Work with case folders: validate, list, re-pin transcripts.
    Cases {
        /// What to do with them.
        #[command(subcommand)]
        action: CasesAction,
    },
}

/// `referee check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The program: a .c or .py file, an executable, or a folder holding
    /// one.
    pub submission: PathBuf,
    /// The game it plays; guessed from the file when left out.
    #[arg(long, short)]
    pub game: Option<GameArg>,
    /// The folder of cases [default: cases/<game>].
    #[arg(long)]
    pub cases: Option<PathBuf>,
    /// Run hidden cases too (for TAs).
    #[arg(long)]
    pub all: bool,
    /// Where to keep the whole transcripts of failed cases.
    #[arg(long, default_value = "referee-check")]
    pub save: PathBuf,
    /// C compiler flags, replacing the suite's (e.g. "-O2 -Wall").
    #[arg(long, allow_hyphen_values = true)]
    pub cflags: Option<String>,
    /// How input is typed: one line each time the program waits for it,
    /// or all at once at the start.
    #[arg(long, value_enum, default_value = "interactive")]
    pub feed: FeedArg,
    /// When to use colour.
    #[arg(long, value_enum, default_value = "auto")]
    pub color: ColorChoice,
}

/// `referee grade`.
#[derive(Debug, Args)]
pub struct GradeArgs {
    /// The game the class plays.
    #[arg(long, short)]
    pub game: GameArg,
    /// The folder of cases [default: cases/<game>].
    #[arg(long)]
    pub cases: Option<PathBuf>,
    /// The folder for results, gradebook and feedback.
    #[arg(long)]
    pub out: PathBuf,
    /// Submissions graded at once [default: every core].
    #[arg(long, short, value_parser = at_least_one)]
    pub jobs: Option<usize>,
    /// Grade only this shard of the class, K/N (e.g. 2/5).
    #[arg(long)]
    pub shard: Option<crate::class::Shard>,
    /// Regrade submissions whose results are already in --out.
    #[arg(long)]
    pub force: bool,
    /// C compiler flags, replacing the suite's (e.g. "-O2 -Wall").
    #[arg(long, allow_hyphen_values = true)]
    pub cflags: Option<String>,
    /// Timeouts after which a submission's remaining cases of the same
    /// kind are not run but judged `timeout` (0: run every case).
    #[arg(long, default_value_t = crate::grading::MAX_TIMEOUTS)]
    pub max_timeouts: usize,
    /// Submissions: files, folders, or folders of submissions (a class).
    #[arg(required = true)]
    pub submissions: Vec<PathBuf>,
}

/// `referee gradescope`.
#[derive(Debug, Args)]
pub struct GradescopeArgs {
    /// The game; guessed from the submitted file when left out.
    #[arg(long, short)]
    pub game: Option<GameArg>,
    /// The folder of cases [default: cases/<game>].
    #[arg(long)]
    pub cases: Option<PathBuf>,
    /// The student's submission: a program, or a folder holding one.
    #[arg(long, default_value = "/autograder/submission")]
    pub submission: PathBuf,
    /// Where to write Gradescope's results.
    #[arg(long, default_value = "/autograder/results/results.json")]
    pub results: PathBuf,
}

/// `referee cases ...`.
#[derive(Debug, Subcommand)]
pub enum CasesAction {
    /// Check case folders: every file loads, every pinned transcript is
    /// what the reference prints. Exits 0 when all is well.
    Validate {
        /// Case folders, or a folder of them [default: cases/].
        dirs: Vec<PathBuf>,
    },
    /// List the cases of folders with their points and visibility.
    List {
        /// Case folders, or a folder of them [default: cases/].
        dirs: Vec<PathBuf>,
        /// Print Markdown tables (cases/README.md is made this way).
        #[arg(long)]
        markdown: bool,
    },
    /// Re-pin each case's transcript to what the reference prints now.
    Update {
        /// Case folders, or a folder of them [default: cases/].
        dirs: Vec<PathBuf>,
    },
    /// Play the reference in the terminal and save the moves as a new
    /// case, with its pinned transcript.
    Record(RecordArgs),
}

/// `referee cases record`.
#[derive(Debug, Args)]
pub struct RecordArgs {
    /// The game to play.
    pub game: GameArg,
    /// The new case's name (its file name): letters, digits, '-', '_', '.'.
    #[arg(long)]
    pub name: String,
    /// The case folder to save it in [default: cases/<game>].
    #[arg(long)]
    pub cases: Option<PathBuf>,
    /// What the case checks, in a sentence.
    #[arg(long)]
    pub description: Option<String>,
    /// Points for passing it [default: the suite's].
    #[arg(long)]
    pub points: Option<f64>,
    /// Make it a public case (students run it with `referee check`).
    #[arg(long)]
    pub public: bool,
    /// Replace a case of the same name.
    #[arg(long)]
    pub force: bool,
}

/// `--feed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FeedArg {
    /// One line each time the program waits to read.
    Interactive,
    /// Every line at the start.
    AllAtOnce,
}

impl From<FeedArg> for Feed {
    fn from(f: FeedArg) -> Feed {
        match f {
            FeedArg::Interactive => Feed::Interactive,
            FeedArg::AllAtOnce => Feed::AllAtOnce,
        }
    }
}

/// A game named on the command line; its help lists every game with one
/// line each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameArg(pub Game);

impl ValueEnum for GameArg {
    fn value_variants<'a>() -> &'a [Self] {
        &[
            GameArg(Game::Connect4),
            GameArg(Game::Connect4Bomb),
            GameArg(Game::Pentago),
        ]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.id()).help(self.0.summary()))
    }
}

/// `--jobs`: a number of at least 1.
fn at_least_one(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(0) => Err(
            "0 would grade nothing: give 1 or more, or leave --jobs out to use \
                      every core"
                .into(),
        ),
        Ok(n) => Ok(n),
        Err(_) => Err(format!(
            "`{text}` is not a number: give how many at once, such as 4"
        )),
    }
}

fn games_help() -> String {
    let mut text = String::from("Games:\n");
    for game in Game::ALL {
        text.push_str(&format!("  {:<15}{}\n", game.id(), game.summary()));
    }
    text
}
