//! The command-line interface: what each command accepts. The work is in
//! [`crate::commands`].

use std::path::PathBuf;

use clap::builder::PossibleValue;
use clap::{Args, Parser, Subcommand, ValueEnum};
use reference::Game;

use referee::explain::ColorChoice;
use referee::run::Feed;

/// Grade console-game programming assignments against a reference
/// implementation.
#[derive(Debug, Parser)]
#[command(
    name = "referee",
    version = concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("REFEREE_COMMIT"), ")"),
    about,
    long_about = None
)]
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
    /// Grade a student's repository in GitHub Classroom's autograding
    /// (every case, hidden ones unnamed) for GitHub's grading reporter:
    /// a `result` line appended to $GITHUB_OUTPUT, a summary and
    /// annotations.
    Classroom(ClassroomArgs),
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
        /// Merge the shards that are there when some are missing (every
        /// report then says which, and how many students they hold).
        #[arg(long)]
        allow_missing: bool,
    },
    /// Say which programs of a class are alike: every pair that shares
    /// code scored from 0 to 1, the code every student was given left
    /// out, in --out/similarity.json and a page per pair. Similar, never
    /// "copied": the pages are evidence for a person to read.
    Similar(SimilarArgs),
    /// Play generated games against the reference until one is played
    /// differently, shrink it to a minimal game and save it as a case.
    /// Exits 1 when a difference was found, 0 when none was.
    Explore(ExploreArgs),
    /// Say which protections and ways of watching programs this machine
    /// supports, and, with --cases, whether it can grade that suite.
    Doctor {
        /// A suite to check this machine against: its reference builds,
        /// the compiler of each of C and C++ is installed, its cases are
        /// pinned, its generator runs.
        #[arg(long)]
        cases: Option<PathBuf>,
    },
    /// Make a suite folder for an assignment of one's own: a commented
    /// suite.yaml naming PROGRAM as its reference, one example case and
    /// its pinned transcript.
    New(NewArgs),
    /// Work with case folders: validate, list, re-pin transcripts.
    Cases {
        /// What to do with them.
        #[command(subcommand)]
        action: CasesAction,
    },
    /// Print a completion script for a shell (bash, zsh, fish, powershell
    /// or elvish), to be saved where the shell looks for it.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Write the manual pages (referee.1 and one per command, such as
    /// referee-grade.1) into DIR, for `man` to find there.
    Man {
        /// Where to write them (made if missing), e.g.
        /// ~/.local/share/man/man1.
        dir: PathBuf,
    },
}

/// `referee check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The program: a C, C++ or Python file, an executable, or a folder
    /// holding one.
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
    /// C++ compiler flags, replacing the suite's (e.g. "-std=c++17 -Wall").
    #[arg(long, allow_hyphen_values = true)]
    pub cxxflags: Option<String>,
    /// How input is typed: one line each time the program waits for it,
    /// or all at once at the start.
    #[arg(long, value_enum, default_value = "interactive")]
    pub feed: FeedArg,
    /// When to use colour.
    #[arg(long, value_enum, default_value = "auto")]
    pub color: ColorChoice,
    /// After the cases, explore generated games (2000, or N with
    /// --explore=N) and show the shortest one your program plays
    /// differently from the reference.
    #[arg(long, value_name = "N", num_args = 0..=1, require_equals = true,
          default_missing_value = "2000", value_parser = games)]
    pub explore: Option<usize>,
    /// The seed of the generated games --explore plays.
    #[arg(long, default_value_t = referee::explore::DEFAULT_SEED, requires = "explore")]
    pub seed: u64,
    /// Print on stderr where the time went, phase by phase.
    #[arg(long)]
    pub timings: bool,
    /// Run every case again from the program's checked build (a C or
    /// C++ program compiled with sanitizers on), to find memory errors
    /// and undefined behaviour even where it passes by luck (by default
    /// only the cases it crashed on and its first few other failures
    /// are).
    #[arg(long)]
    pub diagnose: bool,
    /// Do not run a C or C++ program again from its checked build.
    #[arg(long, conflicts_with = "diagnose")]
    pub no_diagnose: bool,
}

/// `referee new`.
#[derive(Debug, Args)]
pub struct NewArgs {
    /// The folder to make.
    pub dir: PathBuf,
    /// The instructor's program (a .c, .cpp, .py file or an executable),
    /// copied into the folder.
    #[arg(long, value_name = "PROGRAM")]
    pub reference: PathBuf,
    /// A line the example case types (give it once per line).
    #[arg(long, value_name = "LINE", allow_hyphen_values = true)]
    pub input: Vec<String>,
    /// A command-line argument the example case gives the program (give
    /// it once per argument, in order).
    #[arg(long = "arg", value_name = "ARG", allow_hyphen_values = true)]
    pub args: Vec<String>,
    /// End the example case's input after its last line, as Ctrl-D ends
    /// it on a terminal (`end_of_input: true`), and make that every
    /// case's default: for a program that reads to the end of its input.
    #[arg(long)]
    pub end_of_input: bool,
    /// A file the example case puts in the program's working folder
    /// first, as NAME (`--file before.csv=data/scores.csv`): copied into
    /// the suite's `data/` folder (give it once per file).
    #[arg(long = "file", value_name = "NAME=PATH")]
    pub files: Vec<String>,
    /// A file the program must leave in its working folder, compared
    /// with the reference's (give it once per file).
    #[arg(long = "output", value_name = "NAME")]
    pub outputs: Vec<String>,
}

/// `referee explore`.
#[derive(Debug, Args)]
pub struct ExploreArgs {
    /// The program: a C, C++ or Python file, an executable, or a folder
    /// holding one.
    pub submission: PathBuf,
    /// The game it plays; guessed from the file when left out.
    #[arg(long, short)]
    pub game: Option<GameArg>,
    /// The suite whose settings judge the games (limits, comparison,
    /// mode) [default: cases/<game>].
    #[arg(long)]
    pub cases: Option<PathBuf>,
    /// Games to play at most [default: 2000].
    #[arg(long, value_name = "N", conflicts_with = "time", value_parser = games)]
    pub games: Option<usize>,
    /// Play games for this long instead (such as 30s or 2m): the same
    /// games in the same order, as many as fit.
    #[arg(long, value_name = "S", value_parser = duration)]
    pub time: Option<std::time::Duration>,
    /// The seed the games are made from: the same seed and budget give
    /// the same games and the same minimal game.
    #[arg(long, default_value_t = referee::explore::DEFAULT_SEED)]
    pub seed: u64,
    /// The case folder the minimal game is saved in [default:
    /// explored/<game>].
    #[arg(long)]
    pub save: Option<PathBuf>,
    /// Games played at once [default: every core].
    #[arg(long, short, value_parser = at_least_one)]
    pub jobs: Option<usize>,
    /// C compiler flags, replacing the suite's (e.g. "-O2 -Wall").
    #[arg(long, allow_hyphen_values = true)]
    pub cflags: Option<String>,
    /// C++ compiler flags, replacing the suite's (e.g. "-std=c++17 -Wall").
    #[arg(long, allow_hyphen_values = true)]
    pub cxxflags: Option<String>,
    /// When to use colour.
    #[arg(long, value_enum, default_value = "auto")]
    pub color: ColorChoice,
}

/// `referee grade`.
#[derive(Debug, Args)]
pub struct GradeArgs {
    /// The game the class plays (not needed with --cases).
    #[arg(long, short, required_unless_present = "cases")]
    pub game: Option<GameArg>,
    /// The folder of cases [default: cases/<game>]: a built-in game's, or
    /// a suite with a reference program of its own.
    #[arg(long)]
    pub cases: Option<PathBuf>,
    /// The folder for results, gradebook and feedback.
    #[arg(long)]
    pub out: PathBuf,
    /// Submissions graded at once [default: one per processor the job
    /// was given, as many as its memory holds].
    #[arg(long, short, value_parser = at_least_one)]
    pub jobs: Option<usize>,
    /// Grade only this shard of the class, K/N (e.g. 2/5).
    #[arg(long)]
    pub shard: Option<referee::class::Shard>,
    /// Regrade submissions whose results are already in --out.
    #[arg(long)]
    pub force: bool,
    /// C compiler flags, replacing the suite's (e.g. "-O2 -Wall").
    #[arg(long, allow_hyphen_values = true)]
    pub cflags: Option<String>,
    /// C++ compiler flags, replacing the suite's (e.g. "-std=c++17 -Wall").
    #[arg(long, allow_hyphen_values = true)]
    pub cxxflags: Option<String>,
    /// Timeouts after which a submission's later cases of the same kind
    /// still run, each under a short limit (the larger of 1 s and ten
    /// times the reference program's time; 0: every case its own limit).
    #[arg(long, default_value_t = referee::grading::MAX_TIMEOUTS)]
    pub max_timeouts: usize,
    /// Run every case of each C and C++ program again from its checked
    /// build (sanitizers on), to find memory errors and undefined
    /// behaviour even where the program passes by luck (by default only
    /// the cases it crashed on and its first few other failures are);
    /// grades are unchanged.
    #[arg(long)]
    pub diagnose: bool,
    /// Run no case again from a checked build: faster, and no
    /// diagnoses of C and C++ programs.
    #[arg(long, conflicts_with = "diagnose")]
    pub no_diagnose: bool,
    /// Also explore each submission on N generated games, and report the
    /// shortest game each plays differently (worth the suite's
    /// explore_points, 0 unless it says).
    #[arg(long, value_name = "N", value_parser = games)]
    pub explore: Option<usize>,
    /// The seed of the games --explore plays (the same games for every
    /// student).
    #[arg(long, default_value_t = referee::explore::DEFAULT_SEED, requires = "explore")]
    pub explore_seed: u64,
    /// A CSV file mapping students' ids to their learning system's ids
    /// (columns id, lms, lms_id, and optionally name), for a class whose
    /// file names do not carry them; see docs/reports.md.
    #[arg(long, value_name = "FILE")]
    pub roster: Option<PathBuf>,
    /// Print on stderr where the time went, phase by phase.
    #[arg(long)]
    pub timings: bool,
    /// Submissions: files, folders, or folders of submissions (a class).
    #[arg(required = true)]
    pub submissions: Vec<PathBuf>,
}

/// `referee similar`.
#[derive(Debug, Args)]
pub struct SimilarArgs {
    /// The game the class plays: its suite's support files are code
    /// every student was given.
    #[arg(long, short, conflicts_with = "cases")]
    pub game: Option<GameArg>,
    /// The class's suite: its support files are code every student was
    /// given.
    #[arg(long)]
    pub cases: Option<PathBuf>,
    /// A file every student was given (starter code, a header): its code
    /// never counts as shared (give it once per file).
    #[arg(long, value_name = "FILE")]
    pub base: Vec<PathBuf>,
    /// The folder for similarity.json and the pages; where the class was
    /// graded into it, pairs also list the failures they share.
    #[arg(long)]
    pub out: PathBuf,
    /// The folder the class was graded into (`grade --out`), when it is
    /// not --out: pairs list the failures they share from its results.
    #[arg(long, value_name = "DIR")]
    pub results: Option<PathBuf>,
    /// The class: a folder of submissions, or the submissions themselves.
    #[arg(required = true)]
    pub class: Vec<PathBuf>,
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

/// `referee classroom`.
#[derive(Debug, Args)]
pub struct ClassroomArgs {
    /// The game; guessed from the submitted file when left out.
    #[arg(long, short)]
    pub game: Option<GameArg>,
    /// The folder of cases [default: cases/<game>], such as
    /// tests/referee in the repository.
    #[arg(long)]
    pub cases: Option<PathBuf>,
    /// The student's program, or the folder holding it.
    #[arg(default_value = ".")]
    pub submission: PathBuf,
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
    /// Write, beside each case whose pinned transcript differs from what
    /// the reference prints now, the new one to review (`.transcript.new`),
    /// and show the difference; with --accept, pin the reviewed ones.
    Update {
        /// Case folders, or a folder of them [default: cases/].
        dirs: Vec<PathBuf>,
        /// Take the pending `.transcript.new` files as the pins.
        #[arg(long)]
        accept: bool,
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
        static VARIANTS: std::sync::LazyLock<Vec<GameArg>> = std::sync::LazyLock::new(|| {
            referee::games::ALL
                .iter()
                .map(|s| GameArg(s.game))
                .collect()
        });
        &VARIANTS
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(
            PossibleValue::new(self.0.id())
                .aliases(self.0.aliases().iter().copied())
                .help(self.0.summary()),
        )
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

/// `--games` and `--explore`: a number of games, at least 1.
fn games(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(0) => Err("0 games would explore nothing: give 1 or more, such as 2000".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!(
            "`{text}` is not a number of games: give one such as 2000"
        )),
    }
}

/// `--time`: `30s`, `500ms`, `2m`, or a number of seconds.
fn duration(text: &str) -> Result<std::time::Duration, String> {
    let t = text.trim();
    let at = t.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(t.len());
    let (number, unit) = (t[..at].trim(), t[at..].trim());
    let value: f64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a time; write it like 30s, 500ms or 2m"))?;
    let seconds = match unit {
        "" | "s" => value,
        "ms" => value / 1000.0,
        "m" | "min" => value * 60.0,
        "h" => value * 3600.0,
        _ => {
            return Err(format!(
                "`{text}`: unknown unit `{unit}`; use ms, s, m or h"
            ))
        }
    };
    if !(seconds > 0.0 && seconds <= 7.0 * 24.0 * 3600.0) {
        return Err(format!(
            "`{text}`: give a time above zero and at most a week"
        ));
    }
    Ok(std::time::Duration::from_secs_f64(seconds))
}

pub(crate) fn games_help() -> String {
    let mut text = String::from("Games:\n");
    for game in referee::games::ALL.iter().map(|s| s.game) {
        text.push_str(&format!("  {:<15}{}\n", game.id(), game.summary()));
    }
    text
}

#[cfg(test)]
mod tests {
    use clap::ValueEnum;

    use super::*;

    #[test]
    fn the_command_line_offers_every_registered_game_by_id_and_alias() {
        let offered: Vec<Game> = GameArg::value_variants().iter().map(|a| a.0).collect();
        let registered: Vec<Game> = referee::games::ALL.iter().map(|s| s.game).collect();
        assert_eq!(offered, registered);
        let help = games_help();
        for game in registered {
            for name in std::iter::once(game.id()).chain(game.aliases().iter().copied()) {
                assert_eq!(GameArg::from_str(name, false).map(|a| a.0), Ok(game));
            }
            let line = format!("  {:<15}{}", game.id(), game.summary());
            assert!(help.contains(&line), "{help}");
        }
    }
}
