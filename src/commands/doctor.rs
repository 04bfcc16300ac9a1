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
    let missing = sandbox.missing();
    println!("  {:<19} {}", "java", java(missing.as_deref()));
    println!("  {:<19} {}", "diagnoses", diagnoses());
    println!("  {:<19} {}", "kept builds", kept_builds());
    println!();
    let works = match (&proof, missing) {
        (Err(_), _) => {
            println!("Grading does NOT work here: every grade would be wrong, so referee refuses to grade.");
            println!("{}", run::proof::WHAT_TO_DO);
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

/// Whether a Java class builds and runs here, in the sandbox with the
/// layers this machine has, and what holds a JVM's memory.
fn java(missing: Option<&str>) -> String {
    use referee::submission::{self, java};
    let jdk = match java::jdk() {
        Ok(jdk) => jdk,
        Err(why) => return format!("none: {why}"),
    };
    let home = jdk
        .java
        .parent()
        .and_then(Path::parent)
        .unwrap_or(&jdk.java);
    /// Why a class did not build or run.
    #[derive(Debug, thiserror::Error)]
    #[error("{0}")]
    struct Trouble(String);
    let tried = || -> Result<(), Trouble> {
        let dir = tempfile::tempdir().map_err(|e| Trouble(e.to_string()))?;
        let file = dir.path().join("Hello.java");
        std::fs::write(
            &file,
            "public class Hello { public static void main(String[] a) { \
             System.out.println(\"Hello, \" + new java.util.Scanner(System.in).nextLine()); } }",
        )
        .map_err(|e| Trouble(e.to_string()))?;
        let found = submission::locate(&file).map_err(|e| Trouble(e.to_string()))?;
        let built =
            submission::build(&found, &submission::Flags::default(), &[]).map_err(|e| match e {
                submission::BuildError::Compile(m)
                | submission::BuildError::Grader(m)
                | submission::BuildError::Library(m) => Trouble(m),
                submission::BuildError::Refused(r) => Trouble(r.to_string()),
            })?;
        let lines = vec!["Java".to_string()];
        let limits = run::Limits::default();
        let (_, ran) = submission::execute(
            &built.program,
            (&lines).into(),
            &limits,
            &[],
            run::Feed::Interactive,
        )
        .map_err(|e| Trouble(e.to_string()))?;
        let output = ran.transcript.output();
        if String::from_utf8_lossy(&output).contains("Hello, Java") {
            Ok(())
        } else {
            Err(Trouble(format!(
                "a class built but did not run as it should ({:?}): {}",
                ran.ending,
                referee::text::visible::safe(&output[..output.len().min(400)])
            )))
        }
    };
    match tried() {
        Err(why) => format!(
            "NOT WORKING: {} (the JDK at {}): {why}",
            "a class does not build or run in the sandbox",
            home.display()
        ),
        Ok(()) => {
            let memory = if missing.is_some_and(|m| m.contains("memory")) {
                "its heap limited to half a case's memory; the rest of its memory is not limited \
                 (no control group)"
            } else {
                "its heap limited to half a case's memory, and all its memory by the control group"
            };
            format!(
                "a class builds and runs in the sandbox (the JDK at {}): {memory}; its address \
                 space may reach the memory limit and {} GiB more",
                home.display(),
                java::RESERVE >> 30
            )
        }
    }
}

/// Where checked builds are kept between invocations, and how many.
fn kept_builds() -> String {
    use referee::submission::cache;
    let root = cache::where_kept();
    match (&root, root.as_deref().and_then(cache::Cache::open)) {
        (_, Some(kept)) => {
            let (builds, bytes) = kept.size();
            format!(
                "{} ({builds} checked build{}, {} MiB of at most {} MiB; REFEREE_CACHE=off keeps none)",
                kept.root().display(),
                if builds == 1 { "" } else { "s" },
                bytes >> 20,
                cache::LIMIT >> 20
            )
        }
        (None, None) => "none: REFEREE_CACHE is off, or no home folder: every checked build is \
                         made afresh"
            .into(),
        (Some(root), None) => format!(
            "none: {} cannot be made, or others may write to it (what it keeps is run); \
             every checked build is made afresh (REFEREE_CACHE=/another/folder)",
            root.display()
        ),
    }
}

/// Whether C and C++ programs' checked builds work here: a planted
/// write past an array found and placed, as grading would. Made afresh,
/// not found kept: the compiler itself is what is tried.
fn diagnoses() -> String {
    referee::submission::cache::turn_off();
    match referee::diagnose::checks::try_here() {
        Ok(found) => format!(
            "a C program's checked build (sanitizers on) runs in the sandbox and finds {}, {}; \
             its memory held {}",
            found.located(),
            found.when().unwrap_or_default(),
            if referee::sandbox::get().has_control_groups() {
                "by the run's control group"
            } else {
                "by the build itself (no control group here): its address space limited once \
                 the sanitizer has started, no other process, no exec, its resident memory \
                 watched every 10 ms"
            }
        ),
        Err(why) => format!(
            "NOT WORKING: {why}; programs are graded all the same, with no diagnoses of C and C++ \
             programs (install gcc's sanitizer libraries: libasan and libubsan)"
        ),
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
    for (language, said) in compilers(&suite) {
        say(
            language,
            said.is_ok(),
            said.unwrap_or_else(|why| why.to_string()),
        );
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

/// The compiler each of C and C++ gets in `suite`, and whether it is
/// installed here: what to install where it is not.
fn compilers(
    suite: &Suite,
) -> Vec<(
    &'static str,
    Result<String, referee::submission::BuildError>,
)> {
    use referee::submission::{checked, Language};
    let mut said = Vec::new();
    for (language, what) in [(Language::C, "C compiler"), (Language::Cpp, "C++ compiler")] {
        let Some(compiler) = suite.compile.compiler(language) else {
            continue;
        };
        let chosen = suite.compile.chosen().iter().any(|(l, _)| *l == language);
        let whose = if chosen {
            "suite.yaml's `compiler`"
        } else {
            "referee's default"
        };
        let found = referee::submission::command_of(compiler);
        said.push((
            what,
            found.map(|path| {
                let name = path.file_name().unwrap_or_default().to_string_lossy();
                let mut words = format!(
                    "{name} ({whose}), installed at {}; its checked build adds {}",
                    path.display(),
                    checked::sanitizer_flags(compiler).join(" ")
                );
                // The default's is tried on the `diagnoses` line above.
                if language == Language::C && chosen {
                    words.push_str(&tried(suite, compiler));
                }
                words
            }),
        ));
    }
    said
}

/// Whether the checked build of the suite's own C compiler works here,
/// tried as the `diagnoses` line tries gcc's: in words, after a `;`.
fn tried(suite: &Suite, compiler: &referee::submission::languages::Compiler) -> String {
    let flags = referee::submission::Flags {
        compilers: suite.compile.compilers.clone(),
        ..Default::default()
    };
    match referee::diagnose::checks::try_with(&flags) {
        Ok(found) => format!(
            "; it finds {}, {}",
            found.located(),
            found.when().unwrap_or_default()
        ),
        Err(why) => format!(
            "; its checked build does NOT work here: {why}; programs are graded all the same, \
             with no diagnoses (install its sanitizers' runtime: apt-get install {})",
            compiler.package
        ),
    }
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
