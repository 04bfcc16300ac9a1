//! What a program sees of its terminal. With notifications the runner
//! answers a program's terminal calls itself (see `src/run/serve.rs`):
//! programs must not be able to tell, and output must keep its order.

mod common;

use common::*;
use referee::run::{self, Ending, Feed, Limits, RunResult};
use referee::sandbox;
use referee::submission::{self, build};
use referee::transcript::Event;

fn run_program(file: &str, inputs: &[&str]) -> RunResult {
    let submission = submission::locate(&test_file(file)).unwrap();
    let built = build(&submission, &submission::Flags::default(), &[]).unwrap();
    let limits = Limits::default();
    let jail = sandbox::get().jail(&built.program.reads, &limits).unwrap();
    let inputs: Vec<String> = inputs.iter().map(|s| s.to_string()).collect();
    run::run(&built.program, &inputs, &limits, &jail, Feed::Interactive).unwrap()
}

/// The output printed before each input line was given.
fn output_before_inputs(result: &RunResult) -> Vec<String> {
    let mut before = Vec::new();
    let mut printed = String::new();
    for event in result.transcript.events() {
        match event {
            Event::Output(bytes) => printed.push_str(&String::from_utf8_lossy(bytes)),
            Event::Input(_) => before.push(std::mem::take(&mut printed)),
        }
    }
    before
}

#[test]
fn this_machine_answers_for_the_terminal() {
    // Every machine referee is developed and tested on has seccomp
    // notifications; without them the tests below would only exercise
    // the real terminal.
    assert!(
        run::detection_method().starts_with("seccomp notifications"),
        "{}",
        run::detection_method()
    );
}

#[test]
fn a_c_program_cannot_tell_its_terminal_from_a_real_one() {
    let result = run_program("programs/asks-about-its-terminal.c", &["Ada", "four"]);
    assert_eq!(result.ending, Ending::Exited(0));
    assert_eq!(
        String::from_utf8_lossy(&result.transcript.terminal()),
        "stdin 1 stdout 1 stderr 1\n\
         stdout is a character device: 1\n\
         stdout has terminal settings: 1\n\
         window 80x24\n\
         to stderr\n\
         name: Ada\n\
         hello Ada\n\
         more: four\n\
         read 5 bytes in pieces\n\
         redirected stdout 0\n"
    );
    // The prompt, printed without a newline and not flushed by the
    // program, was on the terminal before the program read: stdio took
    // its output for a terminal's.
    let before = output_before_inputs(&result);
    assert!(before[0].ends_with("name: "), "{before:?}");
    assert!(before[1].ends_with("more: "), "{before:?}");
}

#[test]
fn a_python_program_cannot_tell_either() {
    let result = run_program("programs/asks-about-its-terminal.py", &["Grace"]);
    assert_eq!(result.ending, Ending::Exited(0));
    assert_eq!(
        String::from_utf8_lossy(&result.transcript.terminal()),
        "stdin True stdout True stderr True\n\
         line buffered True\n\
         size (80, 24)\n\
         name: Grace\n\
         hello Grace\n"
    );
    assert!(output_before_inputs(&result)[0].ends_with("name: "));
}

#[test]
fn each_run_finds_the_terminal_as_new() {
    // Runs on one thread share a terminal (see src/run/mod.rs): what one
    // program did to it must not reach the next.
    let first = run_program("programs/messes-up-its-terminal.c", &[]);
    assert_eq!(first.ending, Ending::Exited(0));
    let second = run_program("programs/asks-about-its-terminal.c", &["Ada", "four"]);
    assert_eq!(second.ending, Ending::Exited(0));
    let text = String::from_utf8_lossy(&second.transcript.terminal()).into_owned();
    assert!(text.contains("window 80x24\n"), "{text}");
    assert!(text.contains("name: Ada\nhello Ada\n"), "{text}");
    assert!(!text.contains("left behind"), "{text}");
}
